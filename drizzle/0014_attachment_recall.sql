ALTER TABLE `attachments` ADD `description` text;--> statement-breakpoint
-- Recall of attachments (custom: drizzle-kit cannot express FTS5). The text of text, code and PDF
-- files, in passages of about a paragraph, indexed once per distinct file (content hash); a
-- search reaches a chat's files through message_attachments. Same tokenizer as messages_fts, so
-- the recall query means the same in both. `hash` is an indexed column (one token per sha-256):
-- finding, limiting a search to, or deleting one file's passages reads that file's doclist
-- instead of scanning every passage; searches give it no weight in bm25.
CREATE VIRTUAL TABLE `attachment_chunks` USING fts5(
  `text`,
  `hash`,
  `chunk` UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `attachments_chunks_delete` AFTER DELETE ON `attachments` BEGIN
  DELETE FROM `attachment_chunks` WHERE `rowid` IN (
    SELECT `rowid` FROM `attachment_chunks` WHERE `attachment_chunks` MATCH 'hash : "' || old.`hash` || '"'
  );
END;
