/** Which installment plans an amount qualifies for, and what each month costs. */
import { INSTALLMENT_MIN_AMOUNT_SATANG, INSTALLMENT_PERIODS, type InstallmentPeriod } from './constants.js';

/** One plan the checkout can offer: the period and the amount charged each month. */
export interface InstallmentPlan {
  months: InstallmentPeriod;
  monthlyAmountSatang: number;
}

/** The smallest amount any plan accepts: an order below it has no installments at all. */
export const INSTALLMENTS_FROM_SATANG = Math.min(...INSTALLMENT_PERIODS.map((months) => INSTALLMENT_MIN_AMOUNT_SATANG[months]));

/**
 * The plans to offer for an amount: only periods whose minimum it meets (none below 3,000 THB),
 * shortest first. The monthly amount is rounded up to the satang, so the months together never
 * come to less than the charge.
 */
export function installmentPlans(amountSatang: number): InstallmentPlan[] {
  return INSTALLMENT_PERIODS.filter((months) => amountSatang >= INSTALLMENT_MIN_AMOUNT_SATANG[months]).map((months) => ({
    months,
    monthlyAmountSatang: Math.ceil(amountSatang / months),
  }));
}
