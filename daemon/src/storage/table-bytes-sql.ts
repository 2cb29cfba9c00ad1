/** A table's or index's bytes in the database file (its pages). */
export interface TableBytes {
  name: string;
  bytes: number;
}

/** Every page of the file walked, summed by the table or index it belongs to. */
export const TABLE_BYTES_SQL = 'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name';
