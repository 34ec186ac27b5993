import { ApiError } from '../errors.js';

/**
 * ISO 8601 dates of the v2 API (list filters, `shareExpiresAt`): a calendar date
 * (`2026-11-24`, `20261124`) or a date and time (`2026-11-24T10:15`, `...T10:15:30`,
 * `...T10:15:30.250`, basic `20261124T101530`), with an offset (`Z`, `+01:00`, `+0100`,
 * `+01`) or none (then UTC). A value is the span of time its precision names: a day, a
 * minute, a second or a millisecond (finer fractions are cut to the millisecond).
 */
export interface IsoSpan {
  /** The first instant of the span. */
  start: Date;
  /** The first instant after it. */
  end: Date;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$|^(\d{4})(\d{2})(\d{2})$/;
const TIME = /^(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?|(\d{2})(?:(\d{2})(?:[.,](\d+))?)?)$/;
const OFFSET = /(Z|[+-]\d{2}(?::?\d{2})?)$/;

/** The seed's 400 (code 24) for a value that is not an ISO 8601 date. */
export const dateError = (value: string) => new ApiError(400, 24, 'BAD_REQUEST', `Failed to parse date (${value}). Must be on the iso 8601 format`);

export function parseIsoSpan(value: string): IsoSpan {
  const span = tryParse(value.trim());
  if (!span) throw dateError(value);
  return span;
}

function tryParse(value: string): IsoSpan | undefined {
  const [datePart, timeAndOffset, ...rest] = value.split(/[Tt]/);
  if (rest.length) return undefined;
  const date = DATE.exec(datePart);
  if (!date) return undefined;
  const [year, month, day] = (date[1] ? date.slice(1, 4) : date.slice(4, 7)).map(Number);
  if (timeAndOffset === undefined) {
    const start = utc(year, month, day, 0, 0, 0, 0);
    return start && { start, end: new Date(start.getTime() + 86_400_000) };
  }
  const offsetMatch = OFFSET.exec(timeAndOffset);
  const timePart = offsetMatch ? timeAndOffset.slice(0, offsetMatch.index) : timeAndOffset;
  const time = TIME.exec(timePart);
  if (!time) return undefined;
  const extended = time[2] !== undefined || time[5] === undefined;
  const [hour, minute, second, fraction] = extended ? [time[1], time[2], time[3], time[4]] : [time[1], time[5], time[6], time[7]];
  if (minute === undefined) return undefined; // an hour alone is too coarse to be meant
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const local = utc(year, month, day, Number(hour), Number(minute), second === undefined ? 0 : Number(second), ms);
  const offset = offsetMinutes(offsetMatch?.[1]);
  if (!local || offset === undefined) return undefined;
  const start = new Date(local.getTime() - offset * 60_000);
  const unit = fraction !== undefined ? 1 : second !== undefined ? 1000 : 60_000;
  return { start, end: new Date(start.getTime() + unit) };
}

/** Minutes east of UTC; undefined when out of range. */
function offsetMinutes(offset: string | undefined): number | undefined {
  if (!offset || offset === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The date, or undefined when a field is out of its range (month 13, 31 April, 25 o'clock). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): Date | undefined {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date;
}
