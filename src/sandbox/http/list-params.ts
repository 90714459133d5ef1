import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../core/constants.js';
import { SandboxError } from './sandbox-error.js';

/** A comma-separated or repeated query parameter. */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return values.length > 0 ? values : undefined;
}

/**
 * `limit` (1..100, default 20) and `offset` (>= 0, default 0) of a list request. A value out of
 * range is refused with `refuse(field, rule)`: by default the service's validation error.
 */
export function pageParams(
  query: URLSearchParams,
  refuse: (field: string, rule: string) => SandboxError = (field, rule) => SandboxError.field(field, rule),
): { limit: number; offset: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw refuse(name, max === Number.MAX_SAFE_INTEGER ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`);
    }
    return Number(raw);
  };
  return { limit: read('limit', LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT), offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER) };
}
