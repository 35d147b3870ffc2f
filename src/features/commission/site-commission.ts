/**
 * The site commission (spec §7 `GET /site-commissions/`, `PATCH /site-commissions/`): one record of the
 * five percentages every new product starts with. Until an admin saves it, the built-in percentages
 * (defaults.ts) stand in, so a database seeded before products existed works as it is.
 */
import type { HandlerContext } from '../../server/routes/handlers.ts';
import { RecordsService, type Row } from '../../server/records/index.ts';
import { DEFAULT_SITE_COMMISSION, SITE_COMMISSION_NAME } from './defaults.ts';

export const SITE_COMMISSIONS = 'siteCommissions';

/** The record as answered: its name and five percentages (the reject message is never kept on it). */
function answered(row: Row): Row {
  const { message: _message, ...rest } = row;
  return rest;
}

/** The site commission record, or the built-in percentages while none was saved. */
export async function currentSiteCommission(records: RecordsService): Promise<Row> {
  const row = await records.find(SITE_COMMISSIONS, 'name', SITE_COMMISSION_NAME);
  return row ? answered(row) : { name: SITE_COMMISSION_NAME, ...DEFAULT_SITE_COMMISSION };
}

/** `GET /site-commissions/`. */
export async function readSiteCommission({ records }: HandlerContext): Promise<Row> {
  return currentSiteCommission(records);
}

/**
 * `PATCH /site-commissions/` (the body's five percentages, validated by their rules): updates the record,
 * or makes it on the first save. Two first saves at once: the unique name lets one make it, and the
 * other then updates it.
 */
export async function saveSiteCommission({ records, resource, body, ifMatch }: HandlerContext): Promise<Row> {
  for (let attempt = 1; ; attempt++) {
    const row = await records.find(resource, 'name', SITE_COMMISSION_NAME);
    if (row) return answered(await records.update(resource, String(row.id), body, { ifMatch }));
    try {
      return answered(await records.create(resource, { ...body, name: SITE_COMMISSION_NAME }));
    } catch (error) {
      // Another save made the record first (its check or the unique index said so): update that one.
      if (attempt > 1 || !(await records.find(resource, 'name', SITE_COMMISSION_NAME))) throw error;
    }
  }
}
