/**
 * The commission dialog's logic, apart from its drawing: the form as typed, what it shows live (each
 * commission price and the main sell price, spec §5, by `previewCommission`), and the body each decision
 * sends, judged by the very rules the server judges it by (the declared dialogs' `bodySchema`).
 */
import { COMMISSION_FIELDS, previewCommission, type CommissionField, type CommissionStatus } from '../../domain/commission.ts';
import { bodySchema, issuesByField, type ActionDialog, type DialogDef, type Registry, type ResourceDef } from '../../manifest/index.ts';

/** The dialog types of spec §2 the commission dialog carries out (resources/products.ts). */
export const APPROVE_TYPE = 'CreateProductCommissionInQueryMessage';
export const REJECT_TYPE = 'rejectCommission';
/** Ours: the site-wide percentages, opened from the commission dialog. */
export const DEFAULTS_TYPE = 'updateSiteCommission';

type Data = Record<string, unknown>;

/** What the admin decides: approve the percentages, or reject them with a reason; '' until chosen. */
export type Decision = Exclude<CommissionStatus, 'PENDING'> | '';

/** The form as typed: percentages as text (what an input holds), the decision and the reason. */
export interface CommissionForm {
  percents: Record<CommissionField, string>;
  decision: Decision;
  message: string;
}

/** A declared form dialog the commission dialog calls, and the resource declaring it. */
export interface Declared {
  resource: ResourceDef;
  dialog: ActionDialog;
}

/** The approve and reject dialogs as the registry declares them (action dialogs: a handler decides). */
export function declaredDecisions(registry: Registry): { approve: Declared; reject: Declared } {
  const found = (type: string): Declared => {
    const d = registry.dialog(type);
    if (d?.dialog.kind !== 'action') throw new Error(`The commission dialog needs ${type} declared as an action dialog`);
    return { resource: d.resource, dialog: d.dialog };
  };
  return { approve: found(APPROVE_TYPE), reject: found(REJECT_TYPE) };
}

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * The form a product opens with: its percentages, and the decision the opening dialog stands for
 * (approve for `CreateProductCommissionInQueryMessage`, reject for `rejectCommission`, none else).
 */
export function initialForm(record: Data, opened: DialogDef, decisions: { approve: Declared; reject: Declared }): CommissionForm {
  const percents = {} as Record<CommissionField, string>;
  for (const field of COMMISSION_FIELDS) percents[field] = asText(record[field]);
  const decision: Decision = opened === decisions.approve.dialog ? 'APPROVED' : opened === decisions.reject.dialog ? 'REJECTED' : '';
  return { percents, decision, message: '' };
}

/** Whether the form differs from the one it opened with. */
export function isChanged(initial: CommissionForm, form: CommissionForm): boolean {
  return (
    form.decision !== initial.decision ||
    form.message.trim() !== initial.message.trim() ||
    COMMISSION_FIELDS.some((f) => form.percents[f].trim() !== initial.percents[f].trim())
  );
}

/** Each commission price and the main sell price, as 2-decimal text ('' where an input is not valid yet). */
export function previewOf(record: Data, form: CommissionForm): Record<CommissionField | 'price', string> {
  return previewCommission({ sellerprice: record.sellerprice, ...form.percents });
}

/**
 * A typed percentage as the body sends it: a number when the text is a plain decimal, nothing when it is
 * empty (the rule then says 'amount is required!'), else the text itself (the rule says it is not a number).
 */
function percentValue(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  return /^(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : t;
}

/** What approving sends: the seller price as stored, the five percentages, and the price they give. */
export function approveBody(record: Data, form: CommissionForm): Data {
  const body: Data = { sellerprice: record.sellerprice };
  for (const field of COMMISSION_FIELDS) body[field] = percentValue(form.percents[field]);
  const price = previewOf(record, form).price;
  body.price = price === '' ? undefined : Number(price);
  return body;
}

/** What rejecting sends: the typed reason. */
export function rejectBody(form: CommissionForm): Data {
  return { message: form.message };
}

/** The message shown when Save is pressed before Approve or Reject is chosen. */
export const CHOOSE_DECISION = 'Choose Approve or Reject.';

/**
 * The call to make for the form, with its body as the declared dialog's rule makes it (trimmed), or the
 * messages by field, exactly those the server would answer.
 */
export function submission(
  record: Data,
  form: CommissionForm,
  decisions: { approve: Declared; reject: Declared },
): { ok: true; declared: Declared; body: Data } | { ok: false; errors: Record<string, string[]> } {
  if (!form.decision) return { ok: false, errors: { decision: [CHOOSE_DECISION] } };
  const declared = form.decision === 'APPROVED' ? decisions.approve : decisions.reject;
  const body = form.decision === 'APPROVED' ? approveBody(record, form) : rejectBody(form);
  const parsed = bodySchema(declared.resource, declared.dialog).safeParse(body);
  if (!parsed.success) return { ok: false, errors: issuesByField(parsed.error) };
  return { ok: true, declared, body: parsed.data as Data };
}
