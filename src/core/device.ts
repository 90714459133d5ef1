/** The `deviceType` a charge carries, guessed from the browser the shopper pays in. */
import type { DeviceType } from './schemas/payment-method.js';

/**
 * ANDROID, IOS or WEB for the charge's `deviceType`, which decides whether a mobile banking
 * method may open its app. iPadOS 13+ Safari claims to be a Mac, so a "Macintosh" with more than
 * one touch point (`navigator.maxTouchPoints`) is an iPad.
 */
export function deviceTypeFromUserAgent(userAgent: string, maxTouchPoints = 0): DeviceType {
  if (/Android/i.test(userAgent)) return 'ANDROID';
  return /iPhone|iPad|iPod/.test(userAgent) || (userAgent.includes('Macintosh') && maxTouchPoints > 1) ? 'IOS' : 'WEB';
}
