ALTER TABLE `sessions` ADD `context_window` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `max_output` integer;