import { Pipe, PipeTransform } from '@angular/core';
import { dateAndMinute } from './time-format';

/** An ISO time as a date and a time to the minute, in the browser's format (`—` when absent). */
@Pipe({ name: 'when' })
export class WhenPipe implements PipeTransform {
  transform(value: string | number | null | undefined): string {
    if (value === null || value === undefined || value === '') return '—';
    const ms = typeof value === 'number' ? value : Date.parse(value);
    return Number.isFinite(ms) ? dateAndMinute(ms) : '—';
  }
}
