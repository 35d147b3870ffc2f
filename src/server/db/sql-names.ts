/**
 * Names in SQL text that both engines' machinery and the query layer write alike: a leaf module (it
 * imports nothing), so the engine folders can use it without reaching up.
 */

/** An SQL identifier, quoted. */
export const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The table keeping `table`'s records as JSON text (stored-records.ts). */
export const storedRecordsOf = (table: string) => `${table}_records`;
