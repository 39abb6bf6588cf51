CREATE TABLE `reply_recalls` (
	`reply_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`message_ids` text NOT NULL,
	FOREIGN KEY (`reply_id`) REFERENCES `chat_messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reply_recalls_session_idx` ON `reply_recalls` (`session_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `recall` integer;