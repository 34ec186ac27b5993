-- A viewpoint's model references are the models whose products hold its components'
-- GlobalIds (services/bcf/viewpoints.ts guessModels): without an index each viewpoint
-- created read every product of the project's models (61 ms for one of 21k products, in
-- the viewpoint's transaction; the load soak). Per revision, as the query joins them, so
-- it is the plan even before the table's statistics know the products an import wrote.
CREATE INDEX products_global_id ON products (model_id, revision_id, global_id);
