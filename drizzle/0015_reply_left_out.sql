ALTER TABLE `chat_messages` ADD `sent_without_messages` integer;--> statement-breakpoint
ALTER TABLE `token_calibration` ADD `spread` real DEFAULT 0 NOT NULL;