-- The full-text index, rebuilt so that a search within one chat costs what that chat holds, not
-- what the whole database holds (custom: drizzle-kit cannot express FTS5).
--  * `chat` is an indexed column holding the chat's id without hyphens: one token per UUID, so
--    `chat : "<id>" AND text : (...)` intersects the query with that chat's short doclist.
--    The old UNINDEXED `session_id` is gone: queries read the chat from chat_messages.
--  * prefix = '2 3': the typed search makes every word a prefix term, and a short prefix ("th"*)
--    otherwise merges the doclists of every matching word in the database before any filter.
-- The index is rebuilt from chat_messages with the same text the triggers extract, so every
-- existing message stays findable.
DROP TRIGGER IF EXISTS `chat_messages_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `chat_messages_fts_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `chat_messages_fts_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `messages_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `messages_fts` USING fts5(
  `text`,
  `message_id` UNINDEXED,
  `chat`,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `chat`)
  SELECT m.`rid`,
         (SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
            FROM json_each(m.`parts`) WHERE json_extract(value, '$.type') = 'text'),
         m.`id`,
         replace(m.`session_id`, '-', '')
    FROM `chat_messages` m;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_insert` AFTER INSERT ON `chat_messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `text`, `message_id`, `chat`)
  VALUES (
    new.`rid`,
    (SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'),
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
    (SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10)), '')
       FROM json_each(new.`parts`) WHERE json_extract(value, '$.type') = 'text'),
    new.`id`,
    replace(new.`session_id`, '-', '')
  );
END;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_delete` AFTER DELETE ON `chat_messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rid`;
END;
