CREATE TABLE `attachments` (
	`hash` text PRIMARY KEY NOT NULL,
	`media_type` text NOT NULL,
	`size` integer NOT NULL,
	`pages` integer,
	`width` integer,
	`height` integer,
	`created_at` integer NOT NULL,
	`used` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `message_attachments` (
	`message_id` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`message_id`, `hash`),
	FOREIGN KEY (`message_id`) REFERENCES `chat_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_attachments_hash_idx` ON `message_attachments` (`hash`);--> statement-breakpoint
-- The references follow chat_messages.parts, whoever writes the row. Parts without a hash are
-- metadata only (an import that carried just the name) and reference nothing.
CREATE TRIGGER `chat_messages_attachments_insert` AFTER INSERT ON `chat_messages`
WHEN instr(new.`parts`, '"hash"') > 0 BEGIN
  INSERT OR IGNORE INTO `message_attachments` (`message_id`, `hash`)
    SELECT new.`id`, json_extract(value, '$.hash') FROM json_each(new.`parts`)
    WHERE json_extract(value, '$.type') = 'attachment' AND json_extract(value, '$.hash') IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `chat_messages_attachments_update` AFTER UPDATE OF `parts` ON `chat_messages`
WHEN instr(old.`parts`, '"hash"') > 0 OR instr(new.`parts`, '"hash"') > 0 BEGIN
  DELETE FROM `message_attachments` WHERE `message_id` = old.`id`;
  INSERT OR IGNORE INTO `message_attachments` (`message_id`, `hash`)
    SELECT new.`id`, json_extract(value, '$.hash') FROM json_each(new.`parts`)
    WHERE json_extract(value, '$.type') = 'attachment' AND json_extract(value, '$.hash') IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `message_attachments_used` AFTER INSERT ON `message_attachments` BEGIN
  UPDATE `attachments` SET `used` = 1 WHERE `hash` = new.`hash` AND `used` = 0;
END;
