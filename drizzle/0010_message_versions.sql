DROP INDEX `chat_messages_context_idx`;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `version_group` text;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `hidden_in` text;--> statement-breakpoint
CREATE INDEX `chat_messages_hidden_in_idx` ON `chat_messages` (`hidden_in`);--> statement-breakpoint
CREATE INDEX `chat_messages_version_group_idx` ON `chat_messages` (`version_group`);--> statement-breakpoint
CREATE INDEX `chat_messages_context_idx` ON `chat_messages` (`session_id`,`seq`,`status`,`role`,`token_count`,`token_counter`,`part_count`,`has_tool_parts`,`created_at`,`id`,`hidden_in`);