/**
 * What disqualifies a gig driver, read from a motor-vehicle record: a license that is not valid,
 * or a major violation. "Major" follows Checkr's default MVR rules (DUIs, reckless driving,
 * hit and run, driving while suspended, speeding 40+ mph over the limit, vehicular felonies):
 * a violation the vendor categorized as major, or one whose description names such an offence.
 */
import type { MotorVehicleRecord, MotorVehicleViolation } from '../../hooks/domain/connectors';

const MAJOR_DESCRIPTIONS = [
  /\bdui\b|\bdwi\b|\bowi\b|under the influence|while intoxicated|impaired/i,
  /reckless/i,
  /hit and run|leaving the scene|fail(ed|ure)? to stop.*accident/i,
  /(driving|operating) (while|with) (a )?(suspended|revoked)/i,
  /speeding (4\d|[5-9]\d|\d{3})\+? ?mph/i,
  /vehicular (manslaughter|homicide|assault)|felony/i,
  /eluding|fleeing/i,
];

/** License statuses Checkr reports as VALID (help.checkr.com, "How to read an MVR report"). */
const VALID_LICENSE = /^(valid|clear|approved|licensed|active)$/i;

export const isMajorViolation = (v: MotorVehicleViolation): boolean =>
  /major/i.test(v.category ?? '') || MAJOR_DESCRIPTIONS.some((pattern) => pattern.test(v.description));

export interface DrivingVerdict {
  licenseValid: boolean;
  majorViolations: MotorVehicleViolation[];
}

export function judgeDrivingRecord(record: MotorVehicleRecord): DrivingVerdict {
  return {
    licenseValid: VALID_LICENSE.test((record.licenseStatus ?? '').trim()),
    majorViolations: record.violations.filter(isMajorViolation),
  };
}
