import type { ListQuery } from '../../core/schemas/common.js';
import { TransactionListSchema, TransactionSchema, type Transaction, type TransactionList } from '../../core/schemas/transaction.js';
import { listPages, pageQuery } from './list-pages.js';
import { pathSegment, type ReadOptions, type ServiceTransport } from './transport.js';

/** Transactions: the money movements of succeeded charges and refunds. */
export interface TransactionsApi {
  /** Reads one page of transactions. */
  list(query?: ListQuery, options?: ReadOptions): Promise<TransactionList>;
  /** Every transaction, page by page; see {@link ChargesApi.iterate}. */
  iterate(query?: ListQuery, options?: ReadOptions): AsyncIterable<Transaction>;
  /** Reads one transaction; its id is the id of the charge or refund it records. */
  get(transactionId: string, options?: ReadOptions): Promise<Transaction>;
}

/** The transactions of the service, over `transport`. */
export function transactionsApi(transport: ServiceTransport): TransactionsApi {
  const api: TransactionsApi = {
    list: async (query, o) => transport.call(TransactionListSchema, { method: 'GET', path: '/api/v1/transactions', query: pageQuery(query) }, o),
    // A VOID shares its charge's id with the PAYMENT it voids, so the type is part of the identity.
    iterate: (query, o) => listPages((page) => api.list({ ...query, ...page }, o), query, (t) => `${t.transactionType} ${t.transactionId}`),
    get: async (id, o) => transport.call(TransactionSchema, { method: 'GET', path: `/api/v1/transactions/${pathSegment('transactionId', id)}` }, o),
  };
  return api;
}
