import { exactBytes, formatBytes, percentOf } from './bytes';

describe('byte formatting', () => {
  it('keeps small counts in bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(-3)).toBe('0 B');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });

  it('uses binary units with one decimal', () => {
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(200_704)).toBe('196.0 KiB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GiB');
    expect(formatBytes(2 * 1024 ** 5)).toBe('2048.0 TiB');
  });

  it('writes exact counts and shares', () => {
    expect(exactBytes(1234567)).toBe('1,234,567');
    expect(percentOf(1, 4)).toBe('25.0%');
    expect(percentOf(1, 0)).toBe('0.0%');
  });
});
