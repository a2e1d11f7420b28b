import type { Kysely } from 'kysely';

/*
 * KOReader's progress sync finds a book by its document hash on every pull and push (a device pushes at each page
 * turn it syncs): without an index that read the whole book table each time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('book_file_hash_koreader_idx').on('book').column('file_hash_koreader').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
