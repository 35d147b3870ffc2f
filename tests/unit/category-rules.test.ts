/** Every category rule of spec §5 and its exact message, read from the manifests. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { bodySchema, issuesByField } from '../../src/manifest/index.ts';

function errorsOf(type: string, body: Record<string, unknown>) {
  const found = registry.dialog(type)!;
  const parsed = bodySchema(found.resource, found.dialog).safeParse(body);
  return parsed.success ? {} : issuesByField(parsed.error);
}

const GENERAL = "Category cannot be 'general'";

describe('category rules (spec §5)', () => {
  it.each([
    ['createCategory', 'Category name is required!'],
    ['createChildCategory', 'Child Category name is required!'],
    ['createSubCategory', 'Sub Category name is required!'],
    ['createSubChildCategory', 'Sub Child Category name is required!'],
  ])('%s: a name is required, and may not be general in any case', (type, required) => {
    expect(errorsOf(type, {}).name).toEqual([required]);
    expect(errorsOf(type, { name: '' }).name).toEqual([required]);
    expect(errorsOf(type, { name: '   ' }).name).toEqual([required]);
    for (const name of ['general', 'General', 'GENERAL', ' general ']) expect(errorsOf(type, { name }).name).toEqual([GENERAL]);
    expect(errorsOf(type, { name: 'generally fine' }).name).toBeUndefined();
  });

  it('category order is text of at least one character', () => {
    expect(errorsOf('updateCategory', { name: 'A', order: '' }).order).toEqual(['Order must be 1 letter.']);
    expect(errorsOf('updateCategory', { name: 'A' }).order).toEqual(['Order must be 1 letter.']);
    expect(errorsOf('updateCategory', { name: 'A', order: 2 }).order).toEqual(['Order must be 1 letter.']);
    expect(errorsOf('updateCategory', { name: 'A', order: '2' })).toEqual({});
    const order = registry.resource('categories').fields.find((f) => f.name === 'order')!;
    expect(order.default).toBe('1');
    expect(order.emptyShownAs).toBe(0);
  });

  it.each(['createChildCategory', 'updateChildCategory', 'createSubCategory', 'updateSubCategory'])(
    '%s: the image needs 3 characters and the parent 4',
    (type) => {
      const errors = errorsOf(type, { name: 'Phones', image: 'ab', category: 'abc' });
      expect(errors.image).toEqual(['Image is required!']);
      expect(errors.category).toEqual(['Parent category is required!']);
      expect(errorsOf(type, { name: 'Phones', image: 'abc', category: 'abcd', ...(type.startsWith('update') ? { slug: '' } : {}) })).toEqual({});
    },
  );

  it('sub-child categories have no image and a parent sub category', () => {
    expect(errorsOf('createSubChildCategory', { name: 'Pixel', category: 'abcd' })).toEqual({});
    expect(errorsOf('createSubChildCategory', { name: 'Pixel', category: 'abcd', image: 'x.png' }).image).toEqual(["Field 'image' is not allowed."]);
    const parent = registry.resource('subChildCategories').fields.find((f) => f.name === 'category')!;
    expect(parent.reference).toBe('subCategories');
  });

  it('declares the twelve dialogs with the specification calls', () => {
    const calls = Object.fromEntries(
      registry.resources.flatMap((r) => Object.entries(r.dialogs)).map(([type, d]) => [type, 'call' in d ? d.call : undefined]),
    );
    expect(calls).toMatchObject({
      createCategory: 'POST /categories',
      updateCategory: 'PATCH /categories/{id}',
      deleteCategory: 'DELETE /categories/{id}',
      createChildCategory: 'POST /categories/child',
      updateChildCategory: 'PATCH /categories/child/{id}',
      deleteChildCategory: 'DELETE /categories/child/{id}',
      createSubCategory: 'POST /categories/sub',
      updateSubCategory: 'PATCH /categories/sub/{id}',
      deleteSubCategory: 'DELETE /categories/sub/{id}',
      createSubChildCategory: 'POST /categories/sub-child',
      updateSubChildCategory: 'PATCH /categories/sub-child/{id}',
      deleteSubChildCategory: 'DELETE /categories/sub-child/{id}',
    });
    expect(registry.dialog('deleteCategory')!.dialog).toMatchObject({ missing: 'Category is missing.', failure: 'Someting went wrong.' });
    expect(registry.dialog('createCategory')!.dialog).toMatchObject({ failure: 'Unable to create category!', success: 'Category created successfully.' });
    expect(registry.dialog('updateCategory')!.dialog).toMatchObject({ failure: 'Unable to update category!' });
  });
});
