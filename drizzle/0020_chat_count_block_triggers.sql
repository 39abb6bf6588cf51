-- Keeps `chat_count_blocks` (schema/chat-count-blocks.ts) equal to the sums of the stored counts
-- of each marked chat's request history (custom: drizzle-kit cannot express triggers). A message is
-- in the request history when it is on the conversation's path and complete, or a stopped reply
-- holding text: the condition of HISTORY_WHERE in messages-repo.ts. Every writer (the app, the
-- import thread's connection, the CLI) goes through these, so the sums cannot drift from the rows.
-- Chats created from now on are marked at once; older ones are summed and marked on first read.
CREATE TRIGGER `chat_count_blocks_session` AFTER INSERT ON `sessions`
BEGIN
  INSERT OR IGNORE INTO `chat_count_blocks` (`session_id`, `block`, `counter`) VALUES (NEW.`id`, -1, '');
END;
--> statement-breakpoint
CREATE TRIGGER `chat_count_blocks_insert` AFTER INSERT ON `chat_messages`
WHEN NEW.`hidden_in` IS NULL AND (NEW.`status` = 'complete' OR (NEW.`status` = 'aborted' AND NEW.`role` = 'assistant' AND NEW.`part_count` > 0))
BEGIN
  INSERT INTO `chat_count_blocks` (`session_id`, `block`, `counter`, `messages`, `tokens`, `counted`)
    SELECT NEW.`session_id`, NEW.`seq` >> 10, coalesce(NEW.`token_counter`, ''), 1, coalesce(NEW.`token_count`, 0), NEW.`token_count` IS NOT NULL
    WHERE EXISTS (SELECT 1 FROM `chat_count_blocks` WHERE `session_id` = NEW.`session_id` AND `block` = -1)
    ON CONFLICT (`session_id`, `block`, `counter`) DO UPDATE SET
      `messages` = `messages` + 1, `tokens` = `tokens` + excluded.`tokens`, `counted` = `counted` + excluded.`counted`;
END;
--> statement-breakpoint
CREATE TRIGGER `chat_count_blocks_delete` AFTER DELETE ON `chat_messages`
WHEN OLD.`hidden_in` IS NULL AND (OLD.`status` = 'complete' OR (OLD.`status` = 'aborted' AND OLD.`role` = 'assistant' AND OLD.`part_count` > 0))
BEGIN
  UPDATE `chat_count_blocks` SET
      `messages` = `messages` - 1, `tokens` = `tokens` - coalesce(OLD.`token_count`, 0), `counted` = `counted` - (OLD.`token_count` IS NOT NULL)
    WHERE `session_id` = OLD.`session_id` AND `block` = OLD.`seq` >> 10 AND `counter` = coalesce(OLD.`token_counter`, '');
END;
--> statement-breakpoint
CREATE TRIGGER `chat_count_blocks_update`
AFTER UPDATE OF `session_id`, `seq`, `status`, `role`, `part_count`, `token_count`, `token_counter`, `hidden_in` ON `chat_messages`
BEGIN
  UPDATE `chat_count_blocks` SET
      `messages` = `messages` - 1, `tokens` = `tokens` - coalesce(OLD.`token_count`, 0), `counted` = `counted` - (OLD.`token_count` IS NOT NULL)
    WHERE `session_id` = OLD.`session_id` AND `block` = OLD.`seq` >> 10 AND `counter` = coalesce(OLD.`token_counter`, '')
      AND OLD.`hidden_in` IS NULL AND (OLD.`status` = 'complete' OR (OLD.`status` = 'aborted' AND OLD.`role` = 'assistant' AND OLD.`part_count` > 0));
  INSERT INTO `chat_count_blocks` (`session_id`, `block`, `counter`, `messages`, `tokens`, `counted`)
    SELECT NEW.`session_id`, NEW.`seq` >> 10, coalesce(NEW.`token_counter`, ''), 1, coalesce(NEW.`token_count`, 0), NEW.`token_count` IS NOT NULL
    WHERE NEW.`hidden_in` IS NULL AND (NEW.`status` = 'complete' OR (NEW.`status` = 'aborted' AND NEW.`role` = 'assistant' AND NEW.`part_count` > 0)) AND EXISTS (SELECT 1 FROM `chat_count_blocks` WHERE `session_id` = NEW.`session_id` AND `block` = -1)
    ON CONFLICT (`session_id`, `block`, `counter`) DO UPDATE SET
      `messages` = `messages` + 1, `tokens` = `tokens` + excluded.`tokens`, `counted` = `counted` + excluded.`counted`;
END;
