/**
 * The keywords by which a recipient stops or resumes messages (the CTIA set Twilio honours:
 * https://help.twilio.com/articles/223134027): the whole message, any case, surrounding
 * spaces and punctuation ignored. "Please stop calling" is not an opt-out.
 */
const STOP = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
const START = new Set(['START', 'UNSTOP', 'YES']);

export type OptOutIntent = { kind: 'stop' | 'start'; keyword: string };

export function optOutIntent(text: string): OptOutIntent | undefined {
  const word = text
    .trim()
    .replace(/^[\s.!"'¡¿]+|[\s.!"'?]+$/g, '')
    .toUpperCase();
  if (STOP.has(word)) return { kind: 'stop', keyword: word };
  if (START.has(word)) return { kind: 'start', keyword: word };
  return undefined;
}
