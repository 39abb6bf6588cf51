CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`recall_across_chats` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `sessions` ADD `project_id` text REFERENCES projects(id);--> statement-breakpoint
ALTER TABLE `sessions` ADD `recall_across_chats` integer;