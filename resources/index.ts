/** Every manifest, registered once. Client, server, migrations and the spec check all start here. */
import { createRegistry } from '../src/manifest/index.ts';
import { categories, childCategories, subCategories, subChildCategories } from './catalog.ts';
import { users } from './people.ts';

export const registry = createRegistry([categories, childCategories, subCategories, subChildCategories, users]);
