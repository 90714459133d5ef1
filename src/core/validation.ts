import type * as z from 'zod/mini';

/** One field that failed validation, with a message that reads after the field's path. */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `paymentMethod.card.pan`; empty for the body itself. */
  field: string;
  message: string;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Turns zod issues into field issues with plain messages. zod/mini carries no message locale, so
 * a missing field would read "Invalid input"; here it reads "is required", and a wrong type names
 * the expected one.
 */
export function toFieldIssues(issues: readonly z.core.$ZodIssue[], input: unknown): FieldIssue[] {
  return issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    let message = issue.message;
    const parent = issue.path.length === 0 ? undefined : valueAt(input, issue.path.slice(0, -1));
    const missing = issue.path.length === 0 ? input === undefined : parent !== null && typeof parent === 'object' && valueAt(input, issue.path) === undefined;
    if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value')) {
      message = 'is required';
    } else if (issue.code === 'invalid_type' && message === 'Invalid input') {
      message = `must be ${article(issue.expected)}`;
    } else if (issue.code === 'unrecognized_keys') {
      message = `has unknown field(s) ${issue.keys.join(', ')}`;
    }
    return { field, message };
  });
}

function article(expected: string): string {
  if (expected === 'object') return 'an object';
  if (expected === 'array') return 'an array';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}

/** One sentence for a list of field issues: `pan is not a valid card number; amount is required`. */
export function describeFieldIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.field ? `${i.field} ${i.message}` : i.message === 'is required' ? 'body is required' : `body ${i.message}`)).join('; ');
}
