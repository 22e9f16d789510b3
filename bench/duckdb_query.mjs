// The job of `ecsprof report` on EventBridge JSON Lines as DuckDB does it (the yardstick
// of issue 16): read_json_auto over the file, keep the task state changes, the newest
// version of each task, and write task_id,provision_s,pull_s,start_s,total_s as CSV
// (3 decimals; empty when a time is missing or the duration would be negative), as
// bench/phases.py does. usage: node duckdb_query.mjs EVENTS.jsonl OUT.csv THREADS
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output, threads] = process.argv.slice(2);
const q = (s) => "'" + s.replaceAll("'", "''") + "'";
const secs = (a, b) => `CASE WHEN ${a} IS NULL OR ${b} IS NULL OR ${b} < ${a} THEN '' ELSE
    printf('%d.%03d', (${b} - ${a}) // 1000, (${b} - ${a}) % 1000) END`;
const ms = (f) => `epoch_ms(CAST(d.${f} AS TIMESTAMP))`;

const instance = await DuckDBInstance.create(':memory:', { threads: String(threads || 2) });
const con = await instance.connect();
await con.run(`COPY (
  WITH ev AS (
    SELECT detail FROM read_json_auto(${q(input)}, format = 'newline_delimited')
    WHERE "detail-type" = 'ECS Task State Change'
  ), newest AS (
    SELECT detail.taskArn AS arn, arg_max(detail, coalesce(detail.version, 0)) AS d
    FROM ev GROUP BY 1
  ), t AS (
    SELECT arn, ${ms('createdAt')} AS c, ${ms('pullStartedAt')} AS p0,
           ${ms('pullStoppedAt')} AS p1, ${ms('startedAt')} AS s FROM newest
  )
  SELECT split_part(arn, '/', -1) AS task_id, ${secs('c', 'p0')} AS provision_s,
         ${secs('p0', 'p1')} AS pull_s, ${secs('p1', 's')} AS start_s,
         ${secs('c', 's')} AS total_s
  FROM t
) TO ${q(output)} (FORMAT csv, HEADER)`);
