-- Stand-ins for the parts of Citus 12 that citus-layout.sql and the compose
-- profile `citus` call, for checking them on plain PostgreSQL, where Citus is
-- not installed (docs/scale-out.md, "How the layout was checked";
-- check-layout.sh loads this file into a scratch database). Never load it
-- into a database that has the citus extension.
--
-- The functions have the names and argument lists of Citus 12.1
-- (src/backend/distributed/sql/udfs/*/latest.sql in citusdata/citus), except
-- that get_shard_id_for_distribution_column takes text where Citus takes
-- "any" (a C-only pseudo-type). They record what they are asked in stand-in
-- catalogs and refuse what Citus refuses for the reasons a layout must care
-- about:
--   * a UNIQUE or PRIMARY KEY index of a hash-distributed table that does not
--     include the distribution column;
--   * co-location with a table whose distribution column has another type or
--     another collation, or with a table that is not hash-distributed;
--   * a table with triggers, or a trigger created on a distributed table,
--     unless citus.enable_unsafe_triggers is on;
--   * a foreign key between a distributed table and a plain table, in either
--     direction (Citus refuses a key from a distributed table to a plain one;
--     the other direction it refuses at least when distributing concurrently,
--     and the layout avoids both);
--   * a temporary table, a table distributed twice, a missing column.
-- Foreign keys added after distribution are checked by stub_check_layout()
-- at the end, which also checks every unique index again (the layout adds
-- some after distributing).
-- What they cannot show: where shards are placed, how queries are planned
-- and pushed down, triggers running on shards, two-phase commit.

CREATE SCHEMA IF NOT EXISTS citus;
CREATE TYPE citus.distribution_type AS ENUM ('hash', 'range', 'append');
CREATE TYPE noderole AS ENUM ('primary', 'secondary', 'unavailable');

-- The columns of Citus's catalogs that the layout reads, and a stand-in
-- table of its own for what Citus keeps elsewhere.
CREATE TABLE pg_dist_partition (
  logicalrelid regclass PRIMARY KEY,
  partmethod   "char" NOT NULL,        -- h: hash, n: reference
  colocationid integer NOT NULL
);
CREATE TABLE pg_dist_shard (
  logicalrelid  regclass NOT NULL,
  shardid       bigint PRIMARY KEY,
  shardminvalue text,
  shardmaxvalue text
);
CREATE TABLE pg_dist_node (
  nodeid   serial PRIMARY KEY,
  groupid  integer NOT NULL,
  nodename text NOT NULL,
  nodeport integer NOT NULL,
  noderole noderole NOT NULL,
  UNIQUE (nodename, nodeport)
);
CREATE TABLE stub_distribution_columns (
  logicalrelid regclass PRIMARY KEY,
  attname      name NOT NULL
);
CREATE SEQUENCE stub_shard_ids START 102008;
CREATE SEQUENCE stub_colocation_ids START 1;

CREATE FUNCTION citus_version() RETURNS text LANGUAGE sql AS
$$ SELECT 'Citus 12.1.6 (stand-in for checks on plain PostgreSQL)' $$;

CREATE FUNCTION citus_add_node(nodename text, nodeport integer, groupid integer DEFAULT -1,
                               noderole noderole DEFAULT 'primary',
                               nodecluster name DEFAULT 'default')
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  id integer;
BEGIN
  SELECT n.nodeid INTO id FROM pg_dist_node n
   WHERE n.nodename = citus_add_node.nodename AND n.nodeport = citus_add_node.nodeport;
  IF FOUND THEN
    RETURN id;
  END IF;
  INSERT INTO pg_dist_node (groupid, nodename, nodeport, noderole)
  VALUES (coalesce(nullif(citus_add_node.groupid, -1),
                   (SELECT coalesce(max(n.groupid), 0) + 1 FROM pg_dist_node n)),
          citus_add_node.nodename, citus_add_node.nodeport, citus_add_node.noderole)
  RETURNING nodeid INTO id;
  RETURN id;
END;
$$;

CREATE FUNCTION citus_set_coordinator_host(host text,
                                           port integer DEFAULT current_setting('port')::int,
                                           node_role noderole DEFAULT 'primary',
                                           node_cluster name DEFAULT 'default')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pg_dist_node WHERE groupid = 0;
  INSERT INTO pg_dist_node (groupid, nodename, nodeport, noderole)
  VALUES (0, host, port, node_role);
END;
$$;

CREATE FUNCTION citus_get_active_worker_nodes(OUT node_name text, OUT node_port bigint)
RETURNS SETOF record LANGUAGE sql AS
$$ SELECT nodename, nodeport::bigint FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' $$;

-- Runs the command here once per worker: this database stands for every node.
CREATE FUNCTION run_command_on_workers(command text, parallel bool DEFAULT true,
                                       OUT nodename text, OUT nodeport int,
                                       OUT success bool, OUT result text)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  node record;
BEGIN
  FOR node IN SELECT n.nodename, n.nodeport FROM pg_dist_node n
               WHERE n.groupid <> 0 AND n.noderole = 'primary' ORDER BY n.nodeid LOOP
    nodename := node.nodename;
    nodeport := node.nodeport;
    BEGIN
      EXECUTE command INTO result;
      success := true;
    EXCEPTION WHEN OTHERS THEN
      result := SQLERRM;
      success := false;
    END;
    RETURN NEXT;
  END LOOP;
END;
$$;

-- Refuses what Citus refuses of any table it takes into its metadata.
CREATE FUNCTION stub_check_table(rel regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = rel) THEN
    RAISE EXCEPTION 'table "%" is already distributed', rel;
  END IF;
  IF (SELECT relpersistence FROM pg_class WHERE oid = rel) = 't' THEN
    RAISE EXCEPTION 'cannot distribute a temporary table';
  END IF;
  IF EXISTS (SELECT FROM pg_trigger WHERE tgrelid = rel AND NOT tgisinternal)
     AND coalesce(current_setting('citus.enable_unsafe_triggers', true), 'off')
         NOT IN ('on', 'true', '1') THEN
    RAISE EXCEPTION 'cannot distribute relation "%" because it has triggers', rel;
  END IF;
  -- A foreign key from or to a plain table (one Citus does not know).
  IF EXISTS (SELECT FROM pg_constraint c
              WHERE c.contype = 'f' AND c.confrelid = rel AND c.conrelid <> rel
                AND NOT EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = c.conrelid)) THEN
    RAISE EXCEPTION 'relation % is referenced by a foreign key from a local table', rel;
  END IF;
  IF EXISTS (SELECT FROM pg_constraint c
              WHERE c.contype = 'f' AND c.conrelid = rel AND c.confrelid <> rel
                AND NOT EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = c.confrelid)) THEN
    RAISE EXCEPTION 'relation % references a local table', rel;
  END IF;
END;
$$;

CREATE FUNCTION create_reference_table(table_name regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stub_check_table(table_name);
  INSERT INTO pg_dist_partition (logicalrelid, partmethod, colocationid)
  VALUES (table_name, 'n', 0);
  INSERT INTO pg_dist_shard (logicalrelid, shardid) VALUES (table_name, nextval('stub_shard_ids'));
END;
$$;

CREATE FUNCTION create_distributed_table(table_name regclass, distribution_column text,
                                         distribution_type citus.distribution_type DEFAULT 'hash',
                                         colocate_with text DEFAULT 'default',
                                         shard_count int DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  col record;
  other regclass;
  other_col record;
  group_id integer;
  shards integer := coalesce(shard_count, current_setting('citus.shard_count', true)::int, 32);
  increment bigint;
  bad text;
BEGIN
  IF distribution_type <> 'hash' THEN
    RAISE EXCEPTION 'the stand-in knows hash distribution only';
  END IF;
  PERFORM stub_check_table(table_name);
  SELECT a.attname, a.atttypid, a.attcollation INTO col FROM pg_attribute a
   WHERE a.attrelid = table_name AND a.attname = distribution_column AND NOT a.attisdropped;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'column "%" of relation "%" does not exist', distribution_column, table_name;
  END IF;
  -- Every UNIQUE or PRIMARY KEY index must include the distribution column.
  SELECT i.indexrelid::regclass::text INTO bad FROM pg_index i
   WHERE i.indrelid = table_name AND i.indisunique
     AND NOT (SELECT a.attnum FROM pg_attribute a
               WHERE a.attrelid = table_name AND a.attname = distribution_column) = ANY (i.indkey::int2[])
   LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'cannot create constraint on "%": index % does not include the distribution column %',
      table_name, bad, distribution_column;
  END IF;
  IF colocate_with NOT IN ('default', 'none') THEN
    other := colocate_with::regclass;
    SELECT p.colocationid, a.atttypid, a.attcollation, p.partmethod INTO other_col
      FROM pg_dist_partition p
      JOIN stub_distribution_columns d ON d.logicalrelid = p.logicalrelid
      JOIN pg_attribute a ON a.attrelid = p.logicalrelid AND a.attname = d.attname
     WHERE p.logicalrelid = other;
    IF NOT FOUND OR other_col.partmethod <> 'h' THEN
      RAISE EXCEPTION 'cannot colocate tables % and %: % is not hash-distributed', other, table_name, other;
    END IF;
    IF other_col.atttypid <> col.atttypid THEN
      RAISE EXCEPTION 'cannot colocate tables % and %: distribution column types don''t match', other, table_name;
    END IF;
    IF other_col.attcollation <> col.attcollation THEN
      RAISE EXCEPTION 'cannot colocate tables % and %: distribution column collations don''t match', other, table_name;
    END IF;
    IF shard_count IS NOT NULL THEN
      RAISE EXCEPTION 'shard_count and colocate_with cannot both be given';
    END IF;
    group_id := other_col.colocationid;
    shards := (SELECT count(*) FROM pg_dist_shard s WHERE s.logicalrelid = other);
  ELSE
    group_id := nextval('stub_colocation_ids');
  END IF;
  INSERT INTO pg_dist_partition (logicalrelid, partmethod, colocationid)
  VALUES (table_name, 'h', group_id);
  INSERT INTO stub_distribution_columns VALUES (table_name, distribution_column);
  -- Hash ranges as Citus cuts them: equal slices of the int4 hash space.
  increment := 4294967296 / shards;
  INSERT INTO pg_dist_shard (logicalrelid, shardid, shardminvalue, shardmaxvalue)
  SELECT table_name, nextval('stub_shard_ids'),
         (-2147483648 + k * increment)::text,
         CASE WHEN k = shards - 1 THEN '2147483647'
              ELSE (-2147483648 + k * increment + increment - 1)::text END
    FROM generate_series(0, shards - 1) AS k;
END;
$$;

-- Citus refuses CREATE TRIGGER on a distributed or reference table unless
-- citus.enable_unsafe_triggers is on.
CREATE FUNCTION stub_on_create_trigger() RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT * FROM pg_event_trigger_ddl_commands() LOOP
    IF EXISTS (SELECT FROM pg_trigger t JOIN pg_dist_partition p ON p.logicalrelid = t.tgrelid
                WHERE t.oid = cmd.objid)
       AND coalesce(current_setting('citus.enable_unsafe_triggers', true), 'off')
           NOT IN ('on', 'true', '1') THEN
      RAISE EXCEPTION 'triggers are not supported on distributed tables (%)', cmd.object_identity;
    END IF;
  END LOOP;
END;
$$;
CREATE EVENT TRIGGER stub_citus_triggers ON ddl_command_end WHEN TAG IN ('CREATE TRIGGER')
  EXECUTE FUNCTION stub_on_create_trigger();

-- Citus hashes a text value with the type's hash function, hashtext.
CREATE FUNCTION get_shard_id_for_distribution_column(table_name regclass,
                                                     distribution_value text DEFAULT NULL)
RETURNS bigint LANGUAGE sql AS $$
  SELECT s.shardid FROM pg_dist_shard s
   WHERE s.logicalrelid = table_name
     AND CASE WHEN (SELECT partmethod FROM pg_dist_partition p WHERE p.logicalrelid = table_name) = 'n'
              THEN true
              ELSE hashtext(distribution_value) BETWEEN s.shardminvalue::int AND s.shardmaxvalue::int END
$$;

-- The checks Citus makes when a constraint is added to a distributed table,
-- made once for the whole schema after the layout ran: every unique index
-- of a hash-distributed table includes its distribution column, every
-- foreign key between tables Citus knows joins co-located hash-distributed
-- tables on their distribution columns (or points at a reference table), and
-- no plain table is left. One row per problem; none when the layout holds.
CREATE FUNCTION stub_check_layout() RETURNS TABLE (problem text) LANGUAGE sql AS $$
  SELECT format('%s: unique index %s lacks the distribution column %s',
                p.logicalrelid, i.indexrelid::regclass, d.attname)
    FROM pg_dist_partition p
    JOIN stub_distribution_columns d USING (logicalrelid)
    JOIN pg_index i ON i.indrelid = p.logicalrelid AND i.indisunique
   WHERE p.partmethod = 'h'
     AND NOT (SELECT a.attnum FROM pg_attribute a
               WHERE a.attrelid = p.logicalrelid AND a.attname = d.attname) = ANY (i.indkey::int2[])
  UNION ALL
  SELECT format('foreign key %s of %s: %s', c.conname, c.conrelid::regclass,
                CASE WHEN pf.logicalrelid IS NULL OR pt.logicalrelid IS NULL THEN 'a table is not distributed'
                     WHEN pt.partmethod = 'n' THEN NULL
                     WHEN pf.colocationid <> pt.colocationid THEN 'the tables are not co-located'
                     ELSE 'not on the distribution columns' END)
    FROM pg_constraint c
    LEFT JOIN pg_dist_partition pf ON pf.logicalrelid = c.conrelid
    LEFT JOIN pg_dist_partition pt ON pt.logicalrelid = c.confrelid
    LEFT JOIN stub_distribution_columns df ON df.logicalrelid = c.conrelid
    LEFT JOIN stub_distribution_columns dt ON dt.logicalrelid = c.confrelid
   WHERE c.contype = 'f'
     AND NOT (pt.partmethod = 'n' AND pf.logicalrelid IS NOT NULL)
     AND NOT (pf.partmethod = 'h' AND pt.partmethod = 'h' AND pf.colocationid = pt.colocationid
              AND c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                                     WHERE a.attrelid = c.conrelid AND a.attname = df.attname)]
              AND c.confkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                                      WHERE a.attrelid = c.confrelid AND a.attname = dt.attname)])
  UNION ALL
  SELECT format('table %s is neither distributed nor a reference table', c.oid::regclass)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'public' AND c.relkind = 'r'
     AND c.relname NOT IN ('pg_dist_partition', 'pg_dist_shard', 'pg_dist_node',
                           'stub_distribution_columns')
     AND NOT EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
$$;

-- The columns of Citus's citus_tables view that the compose profile prints.
CREATE VIEW citus_tables AS
SELECT p.logicalrelid AS table_name,
       CASE p.partmethod WHEN 'n' THEN 'reference' ELSE 'distributed' END AS citus_table_type,
       coalesce(d.attname::text, '<none>') AS distribution_column,
       p.colocationid AS colocation_id,
       (SELECT count(*) FROM pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid) AS shard_count
  FROM pg_dist_partition p
  LEFT JOIN stub_distribution_columns d USING (logicalrelid);
