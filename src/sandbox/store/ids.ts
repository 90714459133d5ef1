const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random id such as `ch_3fZk…`: unguessable, so hosted pages can be addressed by it. */
export function newId(prefix: string, length = 24, alphabet = ALPHABET): string {
  // 62 * 4 = 248: taking bytes below 248 keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < 248 && out.length < length) out += alphabet.charAt(byte % alphabet.length);
    }
  }
  return `${prefix}${out}`;
}

/** An upper-case reference for a QR payload (Thai QR references allow A-Z and 0-9 only). */
export function newQrReference(length = 20): string {
  return newId('', length, ALPHABET.slice(0, 36));
}
