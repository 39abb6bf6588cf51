CREATE TABLE `chat_imports` (
	`session_id` text PRIMARY KEY NOT NULL,
	`content_hash` text NOT NULL,
	`source` text NOT NULL,
	`imported_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_imports_hash_idx` ON `chat_imports` (`content_hash`);