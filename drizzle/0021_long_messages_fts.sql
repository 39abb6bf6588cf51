-- The full-text index keeps the first 100,000 characters of a message's text (custom: drizzle-kit
-- cannot express FTS5 triggers). Indexing a message of a million characters whole held the event
-- loop for 15-75 ms in one statement (one token per letter of "a b c …", emoji, combining marks);
-- the first 100,000 take a few. Search and Recall find a very long message by its beginning; the
-- stored message is whole. Rows already indexed stay as they are.
DROP TRIGGER IF EXISTS `chat_messages_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `chat_messages_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_insert` AFTER INSERT ON `chat_messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `chat`)
  VALUES (
    new.`rid`,
    substr((SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'), 1, 100000),
    new.`id`,
    replace(new.`session_id`, '-', '')
  );
END;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_update` AFTER UPDATE OF `parts` ON `chat_messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rid`;
  INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `chat`)
  VALUES (
    new.`rid`,
    substr((SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'), 1, 100000),
    new.`id`,
    replace(new.`session_id`, '-', '')
  );
END;
