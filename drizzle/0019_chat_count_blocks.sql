CREATE TABLE `chat_count_blocks` (
	`session_id` text NOT NULL,
	`block` integer NOT NULL,
	`counter` text NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`counted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`session_id`, `block`, `counter`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
