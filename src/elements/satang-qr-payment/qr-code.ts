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
  const { default: encodeQR } = await import('qr');
  // The modules, quiet zone included: true is dark.
  const modules = encodeQR(data, 'raw', { ecc: 'medium', border: QR_QUIET_ZONE_MODULES });
  return { size: modules.length, d: modulesPath(modules) };
}

/** An SVG path of the dark modules, one subpath per horizontal run. */
function modulesPath(modules: boolean[][]): string {
  let d = '';
  modules.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      let run = 0;
      while (row[x + run]) run += 1;
      if (run) d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run || 1;
    }
  });
  return d;
}
