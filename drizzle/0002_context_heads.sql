ALTER TABLE `chat_messages` ADD `part_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `has_tool_parts` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `chat_messages_context_idx` ON `chat_messages` (`session_id`,`seq`,`status`,`role`,`token_count`,`token_counter`,`part_count`,`has_tool_parts`,`created_at`,`id`);