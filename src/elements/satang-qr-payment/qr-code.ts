import type { QRCode } from 'qrcode';

/** Light modules around the code that scanners need to find it (the QR specification's minimum). */
const QR_QUIET_ZONE_MODULES = 4;

/** A QR code as an SVG draws it: the side in modules, quiet zone included, and the path of the dark modules. */
export interface QrDrawing {
  size: number;
  d: string;
}

/**
 * Encodes `data` as a QR code (error correction level M) for an SVG. The QR library is fetched
 * here, on the first code drawn, as its own chunk.
 */
export async function drawQrCode(data: string): Promise<QrDrawing> {
  const { create } = await import('qrcode');
  const { modules } = create(data, { errorCorrectionLevel: 'M' });
  return { size: modules.size + 2 * QR_QUIET_ZONE_MODULES, d: modulesPath(modules) };
}

/** An SVG path of the dark modules, one subpath per horizontal run, offset by the quiet zone. */
function modulesPath(modules: QRCode['modules']): string {
  let d = '';
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; ) {
      let run = 0;
      while (x + run < modules.size && modules.get(y, x + run)) run += 1;
      if (run) d += `M${x + QR_QUIET_ZONE_MODULES} ${y + QR_QUIET_ZONE_MODULES}h${run}v1h-${run}z`;
      x += run || 1;
    }
  }
  return d;
}
