// What every write needs: the database it writes (and audits) in, and the clock its records are dated by.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

export interface WriteDeps {
  db: Kysely<Database>;
  clock: () => Date;
}
