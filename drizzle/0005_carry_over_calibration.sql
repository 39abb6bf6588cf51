-- Token calibration moves from the settings row 'internal.tokenCalibration' (a JSON object keyed by
-- provider:modelId) to its own table. Valid entries are carried over; the settings row is removed.
INSERT OR REPLACE INTO `token_calibration` (`model_key`, `factor`, `samples`, `updated_at`)
SELECT entry.key,
       json_extract(entry.value, '$.factor'),
       json_extract(entry.value, '$.samples'),
       s.updated_at
  FROM `settings` AS s, json_each(s.value_json) AS entry
 WHERE s.key = 'internal.tokenCalibration'
   AND json_valid(s.value_json)
   AND json_type(s.value_json) = 'object'
   AND entry.type = 'object'
   AND json_type(entry.value, '$.factor') IN ('real', 'integer')
   AND json_extract(entry.value, '$.factor') BETWEEN 0.5 AND 2
   AND json_type(entry.value, '$.samples') = 'integer'
   AND json_extract(entry.value, '$.samples') >= 0;--> statement-breakpoint
DELETE FROM `settings` WHERE `key` = 'internal.tokenCalibration';
