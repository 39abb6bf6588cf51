-- Full-text index over the text parts of every message (FR-6.3.2). drizzle-kit cannot express
-- FTS5, so this migration is custom. The index stores its own copy of the text, keyed by the
-- message's INTEGER PRIMARY KEY, and triggers keep it in step with chat_messages.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(
  `text`,
  `message_id` UNINDEXED,
  `session_id` UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_insert` AFTER INSERT ON `chat_messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `session_id`)
  VALUES (
    new.`rid`,
    (SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'),
    new.`id`,
    new.`session_id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_update` AFTER UPDATE OF `parts` ON `chat_messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rid`;
  INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `session_id`)
  VALUES (
    new.`rid`,
    (SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'),
    new.`id`,
    new.`session_id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_delete` AFTER DELETE ON `chat_messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rid`;
END;
