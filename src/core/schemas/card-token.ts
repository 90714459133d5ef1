import * as z from 'zod/mini';
import { CardDetailsRequestSchema } from './payment-method.js';

/**
 * The body of `POST /client/v1/card-tokens`, sent from the shopper's browser with the publishable
 * key. No security code: the CVC travels later, with the charge.
 */
export const CreateCardTokenRequestSchema = z.pick(CardDetailsRequestSchema, {
  pan: true,
  expiryMonth: true,
  expiryYear: true,
  cardHolderName: true,
});
export type CreateCardTokenRequest = z.infer<typeof CreateCardTokenRequestSchema>;

/** The 201 answer of card-token creation: the token id (`ctk_…`). */
export const CardTokenSchema = z.looseObject({ id: z.string() });
export type CardToken = z.infer<typeof CardTokenSchema>;
