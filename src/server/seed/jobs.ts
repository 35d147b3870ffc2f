/**
 * Demo jobs for the board (resources/jobs.ts): open ones a buyer can apply to on first start, posted by
 * the demo admin, one with a closing date, one closed. Money in cents beside the amount, as the
 * server's computation (`computations.payCents`) writes it.
 */
import { newId } from '../db/id.ts';
import type { Db } from '../db/types.ts';
import { computations } from '../../domain/computed.ts';

const DAY = 86_400_000;

export async function seedJobs(trx: Db, stamp: { createdAt: string; updatedAt: string }, adminEmail: string): Promise<void> {
  const admin = await trx.selectFrom('users').select('id').where('email', '=', adminEmail).executeTakeFirst();
  if (!admin) return;
  const soon = new Date(Date.now() + 30 * DAY).toISOString();
  const jobs = [
    { title: 'Warehouse team lead', employmentType: 'FULL_TIME', location: 'Dhaka', remote: 0, pay: 9600, validThrough: soon, status: 'OPEN',
      description: 'Lead a team of six in our Dhaka warehouse: receiving, picking and dispatch for the marketplace’s sellers.' },
    { title: 'Customer support agent (Bangla and English)', employmentType: 'PART_TIME', location: 'Remote', remote: 1, pay: 4800, validThrough: null, status: 'OPEN',
      description: 'Answer buyers and sellers in the support queue and live chat, four hours a day, evenings included.' },
    { title: 'Product photographer', employmentType: 'CONTRACTOR', location: 'Chattogram', remote: 0, pay: null, validThrough: null, status: 'OPEN',
      description: 'Photograph sellers’ products in our studio on a per-shoot basis; bring your own camera and lighting kit.' },
    { title: 'Delivery rider', employmentType: 'FULL_TIME', location: 'Sylhet', remote: 0, pay: 3600, validThrough: null, status: 'CLOSED',
      description: 'Deliver marketplace orders across Sylhet on our motorbikes; a valid licence is required.' },
  ];
  await trx
    .insertInto('jobs')
    .values(jobs.map((job) => ({ id: newId(), ...job, currency: 'USD', payCents: computations.payCents(job), postedBy: admin.id, ...stamp })))
    .execute();
}
