/** The side menu: resources grouped under their manifest's `menu.group`, in registry order. */
import { Fragment } from 'react';
import { ListSubheader } from '@mui/material';
import { Menu, useResourceDefinitions, useSidebarState } from 'react-admin';
import { registry } from '../../../resources/index.ts';

export function GroupedMenu() {
  const registered = useResourceDefinitions();
  const [open] = useSidebarState();
  const groups = new Map<string, string[]>();
  for (const r of registry.resources) {
    if (!r.menu || !registered[r.name]) continue;
    const names = groups.get(r.menu.group) ?? [];
    names.push(r.name);
    groups.set(r.menu.group, names);
  }
  return (
    <Menu>
      {[...groups].map(([group, names]) => (
        <Fragment key={group}>
          {/* A collapsed sidebar shows icons only; a heading there would be cut off. */}
          {open && (
            <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>
              {group}
            </ListSubheader>
          )}
          {names.map((name) => (
            <Menu.ResourceItem key={name} name={name} />
          ))}
        </Fragment>
      ))}
    </Menu>
  );
}
