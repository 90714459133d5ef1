import { describe, expect, it } from 'vitest';
import { deviceTypeFromUserAgent } from '../../src/core/device.js';

const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  androidWebView:
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 Line/13.14.0',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  ipadOldSafari:
    'Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  ipadOsSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ipod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  desktopFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
};

describe('deviceTypeFromUserAgent', () => {
  describe('on Android', () => {
    it('answers ANDROID for phones, tablets and in-app browsers', () => {
      expect(deviceTypeFromUserAgent(UA.androidChrome, 5)).toBe('ANDROID');
      expect(deviceTypeFromUserAgent(UA.androidTablet, 10)).toBe('ANDROID');
      expect(deviceTypeFromUserAgent(UA.androidWebView)).toBe('ANDROID');
    });
  });

  describe('on iOS', () => {
    it('answers IOS for iPhone, iPod and older iPad user agents', () => {
      expect(deviceTypeFromUserAgent(UA.iphoneSafari, 5)).toBe('IOS');
      expect(deviceTypeFromUserAgent(UA.iphoneChrome, 5)).toBe('IOS');
      expect(deviceTypeFromUserAgent(UA.ipod)).toBe('IOS');
      expect(deviceTypeFromUserAgent(UA.ipadOldSafari)).toBe('IOS');
    });

    describe('when iPadOS Safari reports itself as a Mac', () => {
      it('answers IOS because a Mac has no touch screen', () => {
        expect(deviceTypeFromUserAgent(UA.ipadOsSafari, 5)).toBe('IOS');
      });
    });
  });

  describe('on a desktop', () => {
    it('answers WEB for Chrome, Firefox and Safari', () => {
      expect(deviceTypeFromUserAgent(UA.desktopChrome, 0)).toBe('WEB');
      expect(deviceTypeFromUserAgent(UA.desktopFirefox)).toBe('WEB');
      expect(deviceTypeFromUserAgent(UA.macFirefox, 0)).toBe('WEB');
      expect(deviceTypeFromUserAgent(UA.macSafari, 0)).toBe('WEB');
    });

    it('answers WEB for a Mac when the touch points are unknown or one', () => {
      expect(deviceTypeFromUserAgent(UA.macSafari)).toBe('WEB');
      expect(deviceTypeFromUserAgent(UA.macSafari, 1)).toBe('WEB');
    });

    it('answers WEB for an empty user agent', () => {
      expect(deviceTypeFromUserAgent('')).toBe('WEB');
    });
  });
});
