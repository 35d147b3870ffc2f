/**
 * The four-level category tree (spec §3, §5 Categories, §7 Categories): category → child category →
 * sub category → sub-child category. Every level's parent is sent as `category`.
 */
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';

const access = { read: 'signedIn', write: ['admin'] } as const;
const generalBan = "Category cannot be 'general'";
const failures = { create: 'Unable to create category!', update: 'Unable to update category!' };
// Uploaded like every image, each level under its own endpoint (src/manifest/uploads.ts: spec §7 names
// none for categories); a URL can still be typed into the widget.
const categoryImage = (endpoint: 'childcategories' | 'subcategories') =>
  field.image('image', {
    rule: rules.text(3, 'Image is required!'),
    hint: 'Image size 250x150',
    list: true,
    upload: { endpoint },
  });
const parent = (target: string) =>
  field.reference('category', target, {
    label: 'Parent category',
    rule: rules.text(4, 'Parent category is required!'),
    list: true,
  });

export const categories = defineResource({
  name: 'categories',
  label: 'Category',
  plural: 'Categories',
  access,
  menu: { group: 'Catalogue', icon: 'Category' },
  fields: [
    field.text('name', { rule: rules.notGeneral('Category name is required!', generalBan), list: true, searchable: true }),
    // Sent as text (spec §7) but a number: sorted 1, 2, …, 10 and refused when not a whole number.
    field.text('order', { rule: rules.text(1, 'Order must be 1 letter.'), default: '1', emptyShownAs: 0, list: true, sortAs: 'number' }),
    // Not a dialog field: the server keeps it so `GET /categories/{slug}/slug` can find a category.
    field.slug('slug', 'name'),
  ],
  reads: {
    list: read.list('GET /categories'),
    one: read.one('GET /categories/{id}'),
    bySlug: read.one('GET /categories/{slug}/slug', { by: 'slug' }),
  },
  dialogs: {
    createCategory: dialog.create({
      pick: ['name'],
      call: 'POST /categories',
      success: 'Category created successfully.',
      failure: failures.create,
    }),
    updateCategory: dialog.update({
      pick: ['name', 'order'],
      call: 'PATCH /categories/{id}',
      success: 'Category updated successfully.',
      failure: failures.update,
    }),
    deleteCategory: dialog.remove({
      call: 'DELETE /categories/{id}',
      missing: 'Category is missing.',
      success: 'Category deleted successfully.',
    }),
  },
});

export const childCategories = defineResource({
  name: 'childCategories',
  label: 'Child category',
  plural: 'Child categories',
  access,
  menu: { group: 'Catalogue', icon: 'AccountTree' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Child Category name is required!', generalBan),
      list: true,
      searchable: true,
    }),
    categoryImage('childcategories'),
    field.slug('slug', 'name', { rule: rules.optionalText(), hint: 'Left empty, it is made from the name.', list: true }),
    parent('categories'),
  ],
  reads: {
    list: read.list('GET /categories/child'),
    // The product form's first step: the child categories of the category with this slug.
    forProduct: read.list('GET /categories/create-product', {
      scope: { field: 'category', param: 'slug', match: 'slug' },
    }),
  },
  dialogs: {
    createChildCategory: dialog.create({
      pick: ['name', 'image', 'category'],
      call: 'POST /categories/child',
      success: 'Child category created successfully.',
      failure: failures.create,
    }),
    updateChildCategory: dialog.update({
      pick: ['name', 'image', 'slug', 'category'],
      call: 'PATCH /categories/child/{id}',
      success: 'Child category updated successfully.',
      failure: failures.update,
    }),
    deleteChildCategory: dialog.remove({
      call: 'DELETE /categories/child/{id}',
      missing: 'Child category is missing.',
      success: 'Child category deleted successfully.',
    }),
  },
});

export const subCategories = defineResource({
  name: 'subCategories',
  label: 'Sub category',
  plural: 'Sub categories',
  access,
  menu: { group: 'Catalogue', icon: 'Segment' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Sub Category name is required!', generalBan),
      list: true,
      searchable: true,
    }),
    categoryImage('subcategories'),
    field.slug('slug', 'name', { rule: rules.optionalText(), hint: 'Left empty, it is made from the name.', list: true }),
    parent('childCategories'),
  ],
  reads: {
    list: read.list('GET /categories/sub', {
      embed: { childcategory: { via: 'category', embed: { category: { via: 'category' } } } },
    }),
    forProduct: read.list('GET /categories/create-product/{id}/sub', { scope: { field: 'category', param: 'id' } }),
  },
  dialogs: {
    createSubCategory: dialog.create({
      pick: ['name', 'image', 'category'],
      call: 'POST /categories/sub',
      success: 'Sub category created successfully.',
      failure: failures.create,
    }),
    updateSubCategory: dialog.update({
      pick: ['name', 'image', 'slug', 'category'],
      call: 'PATCH /categories/sub/{id}',
      success: 'Sub category updated successfully.',
      failure: failures.update,
    }),
    deleteSubCategory: dialog.remove({
      call: 'DELETE /categories/sub/{id}',
      missing: 'Sub category is missing.',
      success: 'Sub category deleted successfully.',
    }),
  },
});

export const subChildCategories = defineResource({
  name: 'subChildCategories',
  label: 'Sub-child category',
  plural: 'Sub-child categories',
  access,
  menu: { group: 'Catalogue', icon: 'SubdirectoryArrowRight' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Sub Child Category name is required!', generalBan),
      list: true,
      searchable: true,
    }),
    field.slug('slug', 'name', { rule: rules.optionalText(), hint: 'Left empty, it is made from the name.', list: true }),
    parent('subCategories'),
  ],
  reads: {
    // Not among §7's reads, but the list screen needs one; without it the path would fall to {id}.
    list: read.list('GET /categories/sub-child'),
    forProduct: read.list('GET /categories/create-product/{id}/subchild', { scope: { field: 'category', param: 'id' } }),
  },
  dialogs: {
    createSubChildCategory: dialog.create({
      pick: ['name', 'category'],
      call: 'POST /categories/sub-child',
      success: 'Sub-child category created successfully.',
      failure: failures.create,
    }),
    // Spec §7 sends name and slug; the form offers the parent too, as create does and the other levels'
    // updates do. Optional, so the spec's body without it is still taken and leaves the parent as it is.
    updateSubChildCategory: dialog.update({
      pick: ['name', 'slug', 'category'],
      optional: ['category'],
      call: 'PATCH /categories/sub-child/{id}',
      success: 'Sub-child category updated successfully.',
      failure: failures.update,
    }),
    deleteSubChildCategory: dialog.remove({
      call: 'DELETE /categories/sub-child/{id}',
      missing: 'Sub-child category is missing.',
      success: 'Sub-child category deleted successfully.',
    }),
  },
});
