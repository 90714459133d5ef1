import { describe, expect, it } from 'vitest';

import {
  BILL_PAYMENT_SUB_TAGS,
  EMV_TAGS,
  MAX_PROMPTPAY_AMOUNT_SATANG,
  PROMPTPAY_BILL_PAYMENT_AID,
  buildPromptPayBillPaymentPayload,
  crc16CcittFalse,
  encodeEmvTlv,
  parseEmvTlv,
  readEmvField,
  readPromptPayAmountSatang,
  verifyEmvCrc,
  type PromptPayBillPaymentInput,
} from '../../src/core/emv-qr.js';

/**
 * Payloads published in the test suite of the `promptpay-qr` library (github.com/dtinth/promptpay-qr,
 * index.test.js), produced independently of this code and scanned by Thai banking apps.
 */
const PUBLISHED_STATIC_PHONE_PAYLOAD =
  '00020101021129370016A000000677010111011300668012345675802TH530376463046197';
const PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD =
  '00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469';
const PUBLISHED_TAX_ID_PAYLOAD =
  '00020101021129370016A000000677010111021301234567890125802TH530376463040CBD';

const FULL_INPUT: PromptPayBillPaymentInput = {
  billerId: '010555812345601',
  reference1: 'CH3FZK8QW2',
  reference2: 'ORDER20240117',
  amountSatang: 123_456,
  merchantName: 'Satang Coffee Co., Ltd.',
  merchantCity: 'Bangkok',
};

const MINIMAL_INPUT: PromptPayBillPaymentInput = {
  billerId: '010555812345601',
  reference1: 'A',
  amountSatang: 100,
};

/** The error `run` throws, so a test can assert on both its type and its message. */
function errorThrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, but none happened');
}

/** `payload` with the character at `index` replaced by a different one. */
function withCharacterChanged(payload: string, index: number): string {
  const replacement = payload[index] === '0' ? '1' : '0';
  return payload.slice(0, index) + replacement + payload.slice(index + 1);
}

describe('crc16CcittFalse', () => {
  describe('when the input is the catalogue check string "123456789"', () => {
    it('returns 29B1', () => {
      expect(crc16CcittFalse('123456789')).toBe('29B1');
    });
  });

  describe('when the input is empty', () => {
    it('returns the initial value FFFF', () => {
      expect(crc16CcittFalse('')).toBe('FFFF');
    });
  });

  describe('when the input is "A"', () => {
    it('returns B915 in uppercase hex', () => {
      expect(crc16CcittFalse('A')).toBe('B915');
    });
  });

  describe('when the checksum is below 0x1000', () => {
    it('pads it to four digits ("HM" gives 0003)', () => {
      expect(crc16CcittFalse('HM')).toBe('0003');
    });
  });
});

describe('encodeEmvTlv', () => {
  describe('when the value is "TH" under tag 58', () => {
    it('writes 5802TH', () => {
      expect(encodeEmvTlv('58', 'TH')).toBe('5802TH');
    });
  });

  describe('when the value is 99 characters', () => {
    it('writes the length as 99', () => {
      expect(encodeEmvTlv('62', 'X'.repeat(99))).toBe(`6299${'X'.repeat(99)}`);
    });
  });

  describe('when the value is 100 characters', () => {
    it('throws a RangeError naming the tag', () => {
      const error = errorThrownBy(() => encodeEmvTlv('62', 'X'.repeat(100)));
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(/tag 62/);
    });
  });

  describe.each(['5', '123', 'AB', ''])('when the tag is %j', (tag) => {
    it('throws a RangeError', () => {
      expect(() => encodeEmvTlv(tag, 'X')).toThrow(RangeError);
    });
  });
});

describe('parseEmvTlv', () => {
  describe('when given a published PromptPay payload', () => {
    it('splits it into its top-level fields in order', () => {
      expect(parseEmvTlv(PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD)).toEqual([
        { tag: '00', value: '01' },
        { tag: '01', value: '12' },
        { tag: '29', value: '0016A000000677010111' + '01130066000000000' },
        { tag: '58', value: 'TH' },
        { tag: '53', value: '764' },
        { tag: '54', value: '4.22' },
        { tag: '63', value: 'E469' },
      ]);
    });
  });

  describe('when the payload is empty', () => {
    it('returns no fields', () => {
      expect(parseEmvTlv('')).toEqual([]);
    });
  });

  describe('when the last value is shorter than its declared length', () => {
    it('throws a SyntaxError naming the offset where the value starts', () => {
      const error = errorThrownBy(() => parseEmvTlv('000201' + '5905ABC'));
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toMatch(/truncated at offset 10/);
    });
  });

  describe('when the payload stops inside a tag and length', () => {
    it('throws a SyntaxError naming the offset of the partial header', () => {
      const error = errorThrownBy(() => parseEmvTlv('00020158'));
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toMatch(/truncated at offset 6/);
    });
  });

  describe('when a length is not numeric', () => {
    it('throws a SyntaxError naming the offset of the length', () => {
      const error = errorThrownBy(() => parseEmvTlv('000201585XTH'));
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toMatch(/non-numeric length "5X" for tag 58 at offset 8/);
    });
  });

  describe('when a tag is not numeric', () => {
    it('throws a SyntaxError naming the offset of the tag', () => {
      const error = errorThrownBy(() => parseEmvTlv('000201AB02TH'));
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toMatch(/non-numeric tag "AB" at offset 6/);
    });
  });
});

describe('readEmvField', () => {
  describe('when the tag is at the top level', () => {
    it('returns its value', () => {
      expect(readEmvField(PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD, '54')).toBe('4.22');
    });
  });

  describe('when a sub-tag inside a template is asked for', () => {
    it('returns the sub-field value', () => {
      expect(readEmvField(PUBLISHED_TAX_ID_PAYLOAD, '29', '02')).toBe('0123456789012');
    });
  });

  describe('when the tag is absent', () => {
    it('returns undefined', () => {
      expect(readEmvField(PUBLISHED_STATIC_PHONE_PAYLOAD, '54')).toBeUndefined();
    });
  });

  describe('when the template is present but the sub-tag is not', () => {
    it('returns undefined', () => {
      expect(readEmvField(PUBLISHED_STATIC_PHONE_PAYLOAD, '29', '03')).toBeUndefined();
    });
  });

  describe('when the payload is malformed', () => {
    it('throws a SyntaxError', () => {
      expect(() => readEmvField('0002015', '00')).toThrow(SyntaxError);
    });
  });
});

describe('verifyEmvCrc', () => {
  describe.each([
    ['a static phone-number payload', PUBLISHED_STATIC_PHONE_PAYLOAD],
    ['a dynamic payload with an amount', PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD],
    ['a tax-id payload', PUBLISHED_TAX_ID_PAYLOAD],
  ])('when given %s published by another implementation', (_name, payload) => {
    it('returns true', () => {
      expect(verifyEmvCrc(payload)).toBe(true);
    });
  });

  describe('when given a bill-payment payload from the builder', () => {
    const payload = buildPromptPayBillPaymentPayload(FULL_INPUT);

    it('returns true', () => {
      expect(verifyEmvCrc(payload)).toBe(true);
    });

    it('finds the checksum equal to a CRC recomputed over everything up to and including 6304', () => {
      const crcStart = payload.length - 4;
      expect(payload.slice(crcStart - 4, crcStart)).toBe('6304');
      expect(payload.slice(crcStart)).toBe(crc16CcittFalse(payload.slice(0, crcStart)));
    });

    it('returns false when any single character is altered', () => {
      const indexesStillVerifying = Array.from({ length: payload.length }, (_, index) => index).filter((index) => verifyEmvCrc(withCharacterChanged(payload, index)));
      expect(indexesStillVerifying).toEqual([]);
    });
  });

  describe('when a published payload has any single character altered', () => {
    it('returns false for every position', () => {
      const payload = PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD;
      const indexesStillVerifying = Array.from({ length: payload.length }, (_, index) => index).filter((index) => verifyEmvCrc(withCharacterChanged(payload, index)));
      expect(indexesStillVerifying).toEqual([]);
    });
  });

  describe('when the checksum is written in lowercase hex', () => {
    it('returns false, as Thai QR writes it in uppercase', () => {
      const payload = PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD;
      const lowered = payload.slice(0, -4) + payload.slice(-4).toLowerCase();
      expect(lowered).not.toBe(payload);
      expect(verifyEmvCrc(lowered)).toBe(false);
    });
  });

  describe('when "6304" and a matching checksum sit inside another field value', () => {
    it('returns false, as tag 63 must be a field of its own', () => {
      const prefix = '0010AB6304';
      const payload = prefix + crc16CcittFalse(prefix);
      expect(verifyEmvCrc(payload)).toBe(false);
    });
  });

  describe('when the text before a matching checksum is not TLV', () => {
    it('returns false', () => {
      const prefix = 'hello6304';
      expect(verifyEmvCrc(prefix + crc16CcittFalse(prefix))).toBe(false);
    });
  });

  describe.each([
    ['empty', ''],
    ['shorter than a checksum field', '6304'],
    ['missing its checksum field', '0002015802TH'],
    ['cut inside the checksum', PUBLISHED_STATIC_PHONE_PAYLOAD.slice(0, -1)],
  ])('when the payload is %s', (_name, payload) => {
    it('returns false without throwing', () => {
      expect(verifyEmvCrc(payload)).toBe(false);
    });
  });
});

describe('buildPromptPayBillPaymentPayload', () => {
  describe('when every field is given', () => {
    const payload = buildPromptPayBillPaymentPayload(FULL_INPUT);

    it('writes the top-level tags in ascending order with the CRC last', () => {
      expect(parseEmvTlv(payload).map((field) => field.tag)).toEqual([
        '00', '01', '30', '53', '54', '58', '59', '60', '63',
      ]);
    });

    it.each([
      [EMV_TAGS.payloadFormatIndicator, 'payload format indicator', '01'],
      [EMV_TAGS.pointOfInitiation, 'point of initiation, dynamic', '12'],
      [EMV_TAGS.currency, 'currency, THB', '764'],
      [EMV_TAGS.amount, 'amount in baht', '1234.56'],
      [EMV_TAGS.countryCode, 'country code', 'TH'],
      [EMV_TAGS.merchantName, 'merchant name', 'Satang Coffee Co., Ltd.'],
      [EMV_TAGS.merchantCity, 'merchant city', 'Bangkok'],
    ])('writes tag %s (%s) as %j', (tag, _name, expected) => {
      expect(readEmvField(payload, tag)).toBe(expected);
    });

    it.each([
      ['PromptPay bill-payment AID', BILL_PAYMENT_SUB_TAGS.aid, PROMPTPAY_BILL_PAYMENT_AID],
      ['biller id', BILL_PAYMENT_SUB_TAGS.billerId, '010555812345601'],
      ['reference 1', BILL_PAYMENT_SUB_TAGS.reference1, 'CH3FZK8QW2'],
      ['reference 2', BILL_PAYMENT_SUB_TAGS.reference2, 'ORDER20240117'],
    ])('writes the %s in tag 30 sub-tag %s', (_name, subTag, expected) => {
      expect(readEmvField(payload, EMV_TAGS.billPaymentTemplate, subTag)).toBe(expected);
    });

    it('writes the AID A000000677010112 that marks a domestic bill payment', () => {
      expect(readEmvField(payload, '30', '00')).toBe('A000000677010112');
    });

    it('writes a checksum that verifies', () => {
      expect(readEmvField(payload, EMV_TAGS.crc)).toMatch(/^[0-9A-F]{4}$/);
      expect(verifyEmvCrc(payload)).toBe(true);
    });
  });

  describe('when the optional fields are left out', () => {
    const payload = buildPromptPayBillPaymentPayload(MINIMAL_INPUT);

    it('writes no merchant name or city', () => {
      expect(parseEmvTlv(payload).map((field) => field.tag)).toEqual(['00', '01', '30', '53', '54', '58', '63']);
    });

    it('writes no reference 2 in the template', () => {
      expect(parseEmvTlv(readEmvField(payload, '30') ?? '').map((field) => field.tag)).toEqual(['00', '01', '02']);
    });

    it('produces exactly the expected payload', () => {
      const body =
        '000201' +
        '010212' +
        '3044' + '0016A000000677010112' + '0115010555812345601' + '0201A' +
        '5303764' +
        '54041.00' +
        '5802TH' +
        '6304';
      expect(payload).toBe(body + crc16CcittFalse(body));
    });
  });

  describe.each([
    [1, '0.01'],
    [100, '1.00'],
    [101, '1.01'],
    [110, '1.10'],
    [123_456, '1234.56'],
    [99_999_999_999, '999999999.99'],
  ])('when the amount is %i satang', (amountSatang, expected) => {
    const payload = buildPromptPayBillPaymentPayload({ ...MINIMAL_INPUT, amountSatang });

    it(`writes tag 54 as ${expected}`, () => {
      expect(readEmvField(payload, '54')).toBe(expected);
    });

    it('reads back as the same integer satang', () => {
      expect(readPromptPayAmountSatang(payload)).toBe(amountSatang);
    });
  });

  describe('when the amount is the largest accepted', () => {
    it('fits in the 13 characters tag 54 allows', () => {
      const payload = buildPromptPayBillPaymentPayload({ ...MINIMAL_INPUT, amountSatang: MAX_PROMPTPAY_AMOUNT_SATANG });
      expect(readEmvField(payload, '54')?.length).toBeLessThanOrEqual(13);
    });
  });

  describe('when the references and merchant fields are at their longest', () => {
    it('accepts them and writes them unchanged', () => {
      const payload = buildPromptPayBillPaymentPayload({
        ...FULL_INPUT,
        reference1: 'ABCDEFGHIJKLMNOPQRST',
        reference2: '01234567890123456789',
        merchantName: 'X'.repeat(25),
        merchantCity: 'Y'.repeat(15),
      });
      expect(readEmvField(payload, '30', '02')).toBe('ABCDEFGHIJKLMNOPQRST');
      expect(readEmvField(payload, '30', '03')).toBe('01234567890123456789');
      expect(readEmvField(payload, '59')).toBe('X'.repeat(25));
      expect(readEmvField(payload, '60')).toBe('Y'.repeat(15));
    });
  });

  describe.each<[keyof PromptPayBillPaymentInput, unknown]>([
    ['billerId', '01055581234560'],
    ['billerId', '0105558123456011'],
    ['billerId', '01055581234560A'],
    ['billerId', ''],
    ['reference1', ''],
    ['reference1', 'ch3fzk8qw2'],
    ['reference1', 'CH-3FZK'],
    ['reference1', 'ABCDEFGHIJKLMNOPQRSTU'],
    ['reference1', 'ก'],
    ['reference2', ''],
    ['reference2', 'ORDER 1'],
    ['reference2', 'A'.repeat(21)],
    ['amountSatang', 0],
    ['amountSatang', -100],
    ['amountSatang', 100.5],
    ['amountSatang', Number.NaN],
    ['amountSatang', Number.POSITIVE_INFINITY],
    ['amountSatang', MAX_PROMPTPAY_AMOUNT_SATANG + 1],
    ['merchantName', ''],
    ['merchantName', 'X'.repeat(26)],
    ['merchantName', 'Café Satang'],
    ['merchantCity', 'Y'.repeat(16)],
    ['merchantCity', 'Bangkok\n'],
  ])('when %s is %o', (field, value) => {
    it('throws a RangeError naming the field', () => {
      const error = errorThrownBy(() =>
        buildPromptPayBillPaymentPayload({ ...FULL_INPUT, [field]: value }),
      );
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(new RegExp(`^${field}\\b`));
    });
  });
});

describe('readPromptPayAmountSatang', () => {
  describe('when the payload was published with amount 4.22', () => {
    it('returns 422', () => {
      expect(readPromptPayAmountSatang(PUBLISHED_DYNAMIC_AMOUNT_PAYLOAD)).toBe(422);
    });
  });

  describe('when the payload has no tag 54', () => {
    it('returns undefined', () => {
      expect(readPromptPayAmountSatang(PUBLISHED_STATIC_PHONE_PAYLOAD)).toBeUndefined();
    });
  });

  // 1.15 * 100 and 0.29 * 100 are not integers in floating point; 4.5 and 100 use the shorter
  // forms EMV allows.
  describe.each([
    ['1.15', 115],
    ['0.29', 29],
    ['4.5', 450],
    ['100', 10_000],
    ['999999999.99', 99_999_999_999],
  ])('when tag 54 is %s', (amountText, expected) => {
    it(`returns ${expected} satang exactly`, () => {
      expect(readPromptPayAmountSatang('000201' + encodeEmvTlv('54', amountText))).toBe(expected);
    });
  });

  describe.each(['1,00', '1.234', '.50', '-1.00', ''])('when tag 54 is %j', (amountText) => {
    it('throws a SyntaxError naming tag 54', () => {
      const error = errorThrownBy(() => readPromptPayAmountSatang('000201' + encodeEmvTlv('54', amountText)));
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).toMatch(/tag 54/);
    });
  });
});
