/** Which installment plans an amount qualifies for, and what each month costs. */
import { INSTALLMENT_MIN_AMOUNT_SATANG, INSTALLMENT_PERIODS, type InstallmentPeriod } from './constants.js';

/** One plan the checkout can offer: the period and the amount charged each month. */
export interface InstallmentPlan {
  months: InstallmentPeriod;
  monthlyAmountSatang: number;
}

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
