-- Fill the context-heads columns added in 0002 for messages written before them.
UPDATE `chat_messages`
   SET `part_count` = json_array_length(`parts`),
       `has_tool_parts` = instr(`parts`, '"type":"tool-') > 0;
