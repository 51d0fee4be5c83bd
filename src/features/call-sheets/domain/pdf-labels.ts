/**
 * The call sheet PDF's labels. pdfkit lays text out left to right without Arabic shaping,
 * so an Arabic recipient's PDF is labelled in English (their email is in Arabic).
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface PdfLabels {
  title: string;
  production: string;
  date: string;
  call_time: string;
  location: string;
  name: string;
  role: string;
}

const en: PdfLabels = { title: 'Call sheet', production: 'Production', date: 'Date', call_time: 'Call time', location: 'Location', name: 'Name', role: 'Role' };

export const PDF_LABELS: Record<MessageLocale, PdfLabels> = {
  en,
  es: { title: 'Hoja de llamada', production: 'Producción', date: 'Fecha', call_time: 'Hora de llamada', location: 'Lugar', name: 'Nombre', role: 'Función' },
  fr: { title: 'Feuille de service', production: 'Production', date: 'Date', call_time: 'Heure de convocation', location: 'Lieu', name: 'Nom', role: 'Poste' },
  de: { title: 'Dispo', production: 'Produktion', date: 'Datum', call_time: 'Drehzeit', location: 'Ort', name: 'Name', role: 'Funktion' },
  pt: { title: 'Ordem do dia', production: 'Produção', date: 'Data', call_time: 'Horário de chamada', location: 'Local', name: 'Nome', role: 'Função' },
  ar: en,
};
