import { describe, expect, it } from 'vitest';
import { CARD_BRANDS, type CardBrand } from '../../src/core/card.js';
import {
  CARD_MESSAGE_KEYS,
  CARD_RULES,
  cardNumberLengths,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
  validateCardField,
  type CardField,
  type CardRuleContext,
  type CardValidationMoment,
} from '../../src/core/card-rules.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const PLAYGROUND_CARDS = [
  '4111111111111111',
  '5372074248113841',
  '378282246310005',
  '4953261730509988',
  '4389783280144506',
  '4943129900084541',
  '4000007640000003',
  '4000000000005126',
  '4417704002802961',
  '4391370000000006',
];

const context = (brand: CardBrand = 'VISA', now = NOW): CardRuleContext => ({ brand, now });
const keyOf = (field: CardField, value: string, moment: CardValidationMoment, ctx = context()) =>
  validateCardField(field, value, ctx, moment)?.messageKey ?? null;

describe('CARD_MESSAGE_KEYS', () => {
  it('lists every key a rule can return, and nothing twice', () => {
    const used = new Set(Object.values(CARD_RULES).flatMap((rules) => rules.map((r) => r.messageKey)));
    expect([...used].sort()).toEqual([...CARD_MESSAGE_KEYS].sort());
    expect(new Set(CARD_MESSAGE_KEYS).size).toBe(CARD_MESSAGE_KEYS.length);
  });
});

describe('cardNumberLengths', () => {
  it('gives each brand its valid lengths, longest last', () => {
    expect(cardNumberLengths('AMEX')).toEqual([15]);
    expect(cardNumberLengths('MASTERCARD')).toEqual([16]);
    expect(cardNumberLengths('DINERS')).toEqual([14, 16, 17, 18, 19]);
    for (const brand of ['VISA', 'UNIONPAY', 'JCB', 'DISCOVER'] as const) expect(cardNumberLengths(brand).at(-1)).toBe(19);
  });
});

describe('formatCardNumber', () => {
  it.each([
    ['4111111111111111', '4111 1111 1111 1111', 'VISA'],
    ['4111111111111111111', '4111 1111 1111 1111 111', 'VISA'],
    ['5372074248113841', '5372 0742 4811 3841', 'MASTERCARD'],
    ['378282246310005', '3782 822463 10005', 'AMEX'],
    ['36227206271667', '3622 720627 1667', 'DINERS'],
    ['3622720627166712', '3622 7206 2716 6712', 'DINERS'],
    ['3530111333300000', '3530 1113 3330 0000', 'JCB'],
    ['6221260000000000', '6221 2600 0000 0000', 'UNIONPAY'],
    ['6011111111111117', '6011 1111 1111 1117', 'DISCOVER'],
  ])('groups %s as %s (%s)', (input, formatted, brand) => {
    expect(formatCardNumber(input)).toMatchObject({ digits: input, formatted, brand });
  });

  it('groups partial numbers without a trailing space', () => {
    expect(formatCardNumber('41111').formatted).toBe('4111 1');
    expect(formatCardNumber('4111').formatted).toBe('4111');
    expect(formatCardNumber('37828').formatted).toBe('3782 8');
    expect(formatCardNumber('').formatted).toBe('');
  });

  it('reads Thai digits', () => {
    expect(formatCardNumber('๔๑๑๑๑๑๑๑๑๑๑๑๑๑๑๑')).toMatchObject({ digits: '4111111111111111', formatted: '4111 1111 1111 1111', brand: 'VISA' });
  });

  it('accepts a paste with spaces, dashes and stray characters', () => {
    expect(formatCardNumber(' 4111-1111 1111-1111 ').digits).toBe('4111111111111111');
    expect(formatCardNumber('4111.1111/1111x1111').digits).toBe('4111111111111111');
  });

  describe('when the input is longer than the brand allows', () => {
    it('stops at the brand’s longest length', () => {
      expect(formatCardNumber('3782822463100051234')).toMatchObject({ digits: '378282246310005', maxLength: 15 });
      expect(formatCardNumber('53720742481138419')).toMatchObject({ digits: '5372074248113841', maxLength: 16 });
      expect(formatCardNumber('41111111111111111111111')).toMatchObject({ digits: '4111111111111111111', maxLength: 19 });
      expect(formatCardNumber('9'.repeat(25)).digits).toHaveLength(19);
    });
  });
});

describe('formatExpiry', () => {
  it.each([
    ['1', '1'],
    ['12', '12/'],
    ['0', '0'],
    ['01', '01/'],
    ['3', '03/'],
    ['9', '09/'],
    ['13', '01/3'],
    ['1/', '01/'],
    ['12/2', '12/2'],
    ['123', '12/3'],
    ['1228', '12/28'],
    ['12 / 28', '12/28'],
    ['12/2028', '12/2028'],
    ['12/20289', '12/2028'],
    ['๑๒/๒๘', '12/28'],
    ['3/28', '03/28'],
  ])('turns %j into %j', (input, expected) => {
    expect(formatExpiry(input)).toBe(expected);
  });

  describe('when the shopper deletes', () => {
    it('lets the slash and the digits go one at a time', () => {
      expect(formatExpiry('12/', true)).toBe('12/');
      expect(formatExpiry('12', true)).toBe('12');
      expect(formatExpiry('1', true)).toBe('1');
      expect(formatExpiry('03', true)).toBe('03');
      expect(formatExpiry('', true)).toBe('');
    });

    it('would put the slash straight back without the flag', () => {
      expect(formatExpiry('12')).toBe('12/');
    });
  });
});

describe('parseExpiry', () => {
  it.each(['12/28', '12 / 28', '1228', '12/2028', '122028', '๑๒/๒๘', '12-28'])('reads %j as December 2028', (input) => {
    expect(parseExpiry(input, NOW)).toEqual({ month: 12, year: 28 });
  });

  it('reads a one-digit month before a slash', () => {
    expect(parseExpiry('3/28', NOW)).toEqual({ month: 3, year: 28 });
  });

  it.each(['', '  '])('calls %j required', (input) => {
    expect(parseExpiry(input, NOW)).toEqual({ error: 'expiry.required' });
  });

  it.each(['1', '12', '12/', '12/2', '12/202', '128', 'ab/cd'])('calls %j incomplete', (input) => {
    expect(parseExpiry(input, NOW)).toEqual({ error: 'expiry.incomplete' });
  });

  it.each(['00/28', '13/28', '0/28', '00'])('refuses the month in %j', (input) => {
    expect(parseExpiry(input, NOW)).toEqual({ error: 'expiry.month' });
  });

  describe('at the edge of the expiry month', () => {
    it('keeps the card valid through the last day of its month', () => {
      expect(parseExpiry('06/25', new Date('2025-06-30T23:59:59Z'))).toEqual({ month: 6, year: 25 });
    });

    it('calls it past from the first day of the next month', () => {
      expect(parseExpiry('06/25', new Date('2025-07-01T00:00:00Z'))).toEqual({ error: 'expiry.past' });
      expect(parseExpiry('05/25', NOW)).toEqual({ error: 'expiry.past' });
      expect(parseExpiry('12/1999', NOW)).toEqual({ error: 'expiry.past' });
    });
  });

  describe('when the year is Buddhist era', () => {
    it('refuses a four-digit BE year and names the mistake', () => {
      expect(parseExpiry('12/2568', NOW)).toEqual({ error: 'expiry.buddhistEra' });
      expect(parseExpiry('122570', NOW)).toEqual({ error: 'expiry.buddhistEra' });
      expect(parseExpiry('01/2500', NOW)).toEqual({ error: 'expiry.buddhistEra' });
      expect(parseExpiry('01/2700', NOW)).toEqual({ error: 'expiry.buddhistEra' });
    });

    it('reads "68" in 2025 as 2568 BE, not 2068', () => {
      expect(parseExpiry('12/68', NOW)).toEqual({ error: 'expiry.buddhistEra' });
      expect(parseExpiry('12/70', NOW)).toEqual({ error: 'expiry.buddhistEra' });
    });
  });

  describe('when the year is too far ahead', () => {
    it('accepts twenty years ahead and refuses twenty-one', () => {
      expect(parseExpiry('12/45', NOW)).toEqual({ month: 12, year: 45 });
      expect(parseExpiry('01/2046', NOW)).toEqual({ error: 'expiry.tooFar' });
    });

    it('calls a two-digit year too far when its BE reading is not a near year either', () => {
      expect(parseExpiry('12/46', NOW)).toEqual({ error: 'expiry.tooFar' });
      expect(parseExpiry('12/99', NOW)).toEqual({ error: 'expiry.tooFar' });
    });

    it('calls four-digit years outside the BE range too far', () => {
      expect(parseExpiry('12/2100', NOW)).toEqual({ error: 'expiry.tooFar' });
      expect(parseExpiry('12/2701', NOW)).toEqual({ error: 'expiry.tooFar' });
    });
  });
});

describe('validateCardField', () => {
  describe('number', () => {
    it('accepts every playground test card, typed, formatted or in Thai digits', () => {
      for (const pan of PLAYGROUND_CARDS) {
        for (const moment of ['input', 'blur', 'submit'] as const) expect(keyOf('number', pan, moment), pan).toBeNull();
        expect(keyOf('number', formatCardNumber(pan).formatted, 'submit'), pan).toBeNull();
      }
      expect(keyOf('number', '๔๑๑๑ ๑๑๑๑ ๑๑๑๑ ๑๑๑๑', 'submit')).toBeNull();
    });

    describe('when it is empty', () => {
      it('says nothing while typing and asks for it on blur and submit', () => {
        expect(keyOf('number', '', 'input')).toBeNull();
        expect(keyOf('number', '', 'blur')).toBe('number.required');
        expect(keyOf('number', ' ', 'submit')).toBe('number.required');
      });
    });

    describe('when it is incomplete', () => {
      it('says nothing while typing and calls it incomplete on blur and submit', () => {
        expect(keyOf('number', '4111 1111 1111', 'input')).toBeNull();
        expect(keyOf('number', '4111 1111 1111', 'blur')).toBe('number.incomplete');
        expect(keyOf('number', '37828224631000', 'submit')).toBe('number.incomplete');
        expect(keyOf('number', '4', 'blur')).toBe('number.incomplete');
      });

      it('calls a length between two valid ones incomplete', () => {
        expect(keyOf('number', '41111111111111111', 'blur')).toBe('number.incomplete');
      });
    });

    describe('when it fails Luhn', () => {
      it('says so while typing once the brand’s full length is reached', () => {
        expect(keyOf('number', '378282246310006', 'input')).toBe('number.invalid');
        expect(keyOf('number', '5372074248113842', 'input')).toBe('number.invalid');
      });

      it('waits for blur while the brand allows more digits', () => {
        expect(keyOf('number', '4111111111111112', 'input')).toBeNull();
        expect(keyOf('number', '4111111111111112', 'blur')).toBe('number.invalid');
      });
    });

    it('refuses characters that are not digits while typing', () => {
      expect(keyOf('number', '4111x', 'input')).toBe('number.invalid');
    });

    it('refuses a number longer than its brand allows', () => {
      expect(keyOf('number', '53720742481138410', 'input')).toBe('number.invalid');
    });

    describe('when the brand is not supported', () => {
      it('says so from the fourth digit, when no further digit could change it', () => {
        expect(keyOf('number', '999', 'input')).toBeNull();
        expect(keyOf('number', '9999', 'input')).toBe('number.unsupportedBrand');
        expect(keyOf('number', '9999999999999995', 'submit')).toBe('number.unsupportedBrand');
      });

      it('honours the brands this checkout accepts', () => {
        const visaOnly = { ...context(), brands: ['VISA'] as const };
        expect(keyOf('number', '3782 8224 6310 005', 'input', visaOnly)).toBe('number.unsupportedBrand');
        expect(keyOf('number', '4111 1111 1111 1111', 'submit', visaOnly)).toBeNull();
      });

      it('accepts every known brand by default', () => {
        expect(CARD_BRANDS).toContain('DISCOVER');
        expect(keyOf('number', '6011111111111117', 'submit')).toBeNull();
      });
    });
  });

  describe('expiry', () => {
    it('accepts a future date at every moment', () => {
      for (const moment of ['input', 'blur', 'submit'] as const) expect(keyOf('expiry', '12/28', moment)).toBeNull();
    });

    it('asks for an empty expiry on blur only', () => {
      expect(keyOf('expiry', '', 'input')).toBeNull();
      expect(keyOf('expiry', '', 'blur')).toBe('expiry.required');
    });

    it('waits for blur to call it incomplete', () => {
      expect(keyOf('expiry', '12/2', 'input')).toBeNull();
      expect(keyOf('expiry', '12/2', 'blur')).toBe('expiry.incomplete');
    });

    it('refuses an impossible month while typing', () => {
      expect(keyOf('expiry', '00', 'input')).toBe('expiry.month');
      expect(keyOf('expiry', '13/', 'input')).toBe('expiry.month');
    });

    describe('when the year has two digits', () => {
      it('waits for blur, since more digits could still make it right', () => {
        expect(keyOf('expiry', '12/20', 'input')).toBeNull();
        expect(keyOf('expiry', '12/20', 'blur')).toBe('expiry.past');
        expect(keyOf('expiry', '12/68', 'input')).toBeNull();
        expect(keyOf('expiry', '12/68', 'blur')).toBe('expiry.buddhistEra');
        expect(keyOf('expiry', '12/99', 'submit')).toBe('expiry.tooFar');
      });
    });

    describe('when the year has four digits', () => {
      it('says what is wrong while typing, since the input can take no more', () => {
        expect(keyOf('expiry', '12/2568', 'input')).toBe('expiry.buddhistEra');
        expect(keyOf('expiry', '122568', 'input')).toBe('expiry.buddhistEra');
        expect(keyOf('expiry', '12/2020', 'input')).toBe('expiry.past');
        expect(keyOf('expiry', '12/2099', 'input')).toBe('expiry.tooFar');
        expect(keyOf('expiry', '12/2028', 'input')).toBeNull();
      });
    });

    it('uses the `now` it is given', () => {
      expect(keyOf('expiry', '06/25', 'blur', context('VISA', new Date('2025-06-30T23:59:59Z')))).toBeNull();
      expect(keyOf('expiry', '06/25', 'blur', context('VISA', new Date('2025-07-01T00:00:00Z')))).toBe('expiry.past');
    });
  });

  describe('cvc', () => {
    it('accepts three digits, or four on Amex', () => {
      expect(keyOf('cvc', '123', 'submit')).toBeNull();
      expect(keyOf('cvc', '1234', 'submit', context('AMEX'))).toBeNull();
      expect(keyOf('cvc', '๑๒๓', 'submit')).toBeNull();
    });

    it('asks for an empty CVC on blur only', () => {
      expect(keyOf('cvc', '', 'input')).toBeNull();
      expect(keyOf('cvc', '', 'blur')).toBe('cvc.required');
    });

    it('waits for blur to call a short CVC wrong', () => {
      expect(keyOf('cvc', '12', 'input')).toBeNull();
      expect(keyOf('cvc', '12', 'blur')).toBe('cvc.length');
      expect(keyOf('cvc', '123', 'blur', context('AMEX'))).toBe('cvc.length');
    });

    it('refuses too many digits or a non-digit while typing', () => {
      expect(keyOf('cvc', '1234', 'input')).toBe('cvc.length');
      expect(keyOf('cvc', '12a', 'input')).toBe('cvc.length');
    });
  });

  describe('holderName', () => {
    it('accepts a Thai or Latin name', () => {
      expect(keyOf('holderName', 'สมชาย ใจดี', 'submit')).toBeNull();
      expect(keyOf('holderName', 'SOMCHAI JAIDEE', 'submit')).toBeNull();
    });

    it('asks for an empty or blank name on blur only', () => {
      expect(keyOf('holderName', '   ', 'input')).toBeNull();
      expect(keyOf('holderName', '   ', 'blur')).toBe('holderName.required');
    });

    it('refuses more than 100 characters while typing, ignoring surrounding spaces', () => {
      expect(keyOf('holderName', 'A'.repeat(100), 'input')).toBeNull();
      expect(keyOf('holderName', ` ${'A'.repeat(100)} `, 'submit')).toBeNull();
      expect(keyOf('holderName', 'A'.repeat(101), 'input')).toBe('holderName.tooLong');
    });
  });

  it('names the field it failed', () => {
    expect(validateCardField('cvc', '', context(), 'submit')).toEqual({ field: 'cvc', messageKey: 'cvc.required' });
  });
});
