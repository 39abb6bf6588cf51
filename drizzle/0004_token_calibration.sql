CREATE TABLE `token_calibration` (
	`model_key` text PRIMARY KEY NOT NULL,
	`factor` real NOT NULL,
	`samples` integer NOT NULL,
	`updated_at` integer NOT NULL
);
