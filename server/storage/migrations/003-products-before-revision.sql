-- An import writes its products and definitions in batches before its revision row exists
-- (the revision appears to readers only when all of them are in: jobs/ifc-import.ts), so
-- they hang off the model, not the revision.
ALTER TABLE products DROP CONSTRAINT products_model_id_revision_id_fkey;
ALTER TABLE products ADD FOREIGN KEY (model_id) REFERENCES models(id) ON DELETE CASCADE;
ALTER TABLE definitions DROP CONSTRAINT definitions_model_id_revision_id_fkey;
ALTER TABLE definitions ADD FOREIGN KEY (model_id) REFERENCES models(id) ON DELETE CASCADE;
-- Nothing looks products up by GlobalId; the index only slowed imports down.
DROP INDEX products_global_id;
