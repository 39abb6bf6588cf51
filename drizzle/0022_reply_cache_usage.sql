ALTER TABLE `chat_messages` ADD `cache_read_tokens` integer;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `cache_write_tokens` integer;