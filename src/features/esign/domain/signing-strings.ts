/**
 * The signer's words (the email with the link, the signing page, the email with the signed
 * PDF) in the six languages messages are written in. The consent text is the simple
 * electronic signature disclosure of the ESIGN Act (15 U.S.C. § 7001(c)) and eIDAS
 * (art. 3(10), art. 25(1)): that signing here is signing, that a paper copy can be asked for,
 * and that consent can be withdrawn by declining.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface SigningStrings {
  email_subject: string;
  email_body: string;
  signed_subject: string;
  signed_body: string;
  /** The reminder to sign (the same link again). */
  reminder_subject: string;
  reminder_body: string;
  /** The notice a day before the envelope expires. */
  expiry_subject: string;
  expiry_body: string;
  title: string;
  intro: string;
  download: string;
  consent: string;
  signature_legend: string;
  typed: string;
  typed_hint: string;
  drawn: string;
  drawn_hint: string;
  clear: string;
  sign: string;
  decline_legend: string;
  decline_reason: string;
  decline: string;
  signed: string;
  declined: string;
  voided: string;
  expired: string;
  consent_required: string;
  name_required: string;
  /** The organization's time-stamp authority failed (PAdES-B-T): nothing was recorded. */
  sign_later: string;
}

export const SIGNING_STRINGS: Record<MessageLocale, SigningStrings> = {
  en: {
    email_subject: '{organization} asks you to sign: {title}',
    email_body:
      'Hello {name},\n\n{organization} has sent you "{title}" to review and sign electronically. Open it here (the link works until {expires}):\n\n{url}\n\nIf you did not expect this, you can ignore this email.',
    signed_subject: 'Signed: {title}',
    signed_body: 'Hello {name},\n\nYou signed "{title}" for {organization}. The signed document, with its audit trail, is attached.',
    reminder_subject: 'Reminder: {organization} is waiting for your signature on {title}',
    reminder_body:
      'Hello {name},\n\n{organization} sent you "{title}" to sign electronically, and it is not signed yet. Open it here (the link works until {expires}):\n\n{url}\n\nIf you do not want to sign, you can decline on the same page.',
    expiry_subject: 'Last day to sign: {title}',
    expiry_body:
      'Hello {name},\n\n"{title}" from {organization} can be signed until {expires}; after that the link no longer signs. Open it here:\n\n{url}\n\nIf you do not want to sign, you can decline on the same page.',
    title: 'Review and sign',
    intro: '{organization} asks you to sign "{title}". Read the document, then sign or decline.',
    download: 'Download the document (PDF)',
    consent:
      'I agree to sign this document electronically. My electronic signature is as binding as a handwritten one. I may ask {organization} for a paper copy, and I may decline instead of signing.',
    signature_legend: 'Your signature',
    typed: 'Type your full name',
    typed_hint: 'Your typed name is your signature.',
    drawn: 'Or draw your signature',
    drawn_hint: 'Draw with a mouse, a finger or a pen. Optional: your typed name is enough.',
    clear: 'Clear drawing',
    sign: 'Sign the document',
    decline_legend: 'Decline to sign',
    decline_reason: 'Reason (optional)',
    decline: 'Decline',
    signed: 'You signed this document. A copy is on its way to your email.',
    declined: 'You declined to sign this document. {organization} has been told.',
    voided: '{organization} withdrew this document; there is nothing to sign.',
    expired: 'This document can no longer be signed: the time to sign it has passed.',
    consent_required: 'Please agree to sign electronically first.',
    name_required: 'Please type your full name.',
    sign_later:
      'Your signature could not be completed just now: the sender’s time-stamp service did not answer. Nothing was recorded; please sign again in a few minutes.',
  },
  es: {
    email_subject: '{organization} le pide que firme: {title}',
    email_body:
      'Hola {name}:\n\n{organization} le ha enviado «{title}» para revisarlo y firmarlo electrónicamente. Ábralo aquí (el enlace funciona hasta el {expires}):\n\n{url}\n\nSi no lo esperaba, puede ignorar este correo.',
    signed_subject: 'Firmado: {title}',
    signed_body: 'Hola {name}:\n\nHa firmado «{title}» para {organization}. Adjuntamos el documento firmado con su registro de auditoría.',
    reminder_subject: 'Recordatorio: {organization} espera su firma en {title}',
    reminder_body:
      'Hola {name}:\n\n{organization} le envió «{title}» para firmarlo electrónicamente y todavía no está firmado. Ábralo aquí (el enlace funciona hasta el {expires}):\n\n{url}\n\nSi no desea firmarlo, puede rechazarlo en la misma página.',
    expiry_subject: 'Último día para firmar: {title}',
    expiry_body:
      'Hola {name}:\n\n«{title}», de {organization}, se puede firmar hasta el {expires}; después, el enlace ya no servirá para firmar. Ábralo aquí:\n\n{url}\n\nSi no desea firmarlo, puede rechazarlo en la misma página.',
    title: 'Revisar y firmar',
    intro: '{organization} le pide que firme «{title}». Lea el documento y después fírmelo o rechácelo.',
    download: 'Descargar el documento (PDF)',
    consent:
      'Acepto firmar este documento electrónicamente. Mi firma electrónica me obliga igual que una manuscrita. Puedo pedir a {organization} una copia en papel y puedo rechazar en lugar de firmar.',
    signature_legend: 'Su firma',
    typed: 'Escriba su nombre completo',
    typed_hint: 'Su nombre escrito es su firma.',
    drawn: 'O dibuje su firma',
    drawn_hint: 'Dibuje con el ratón, el dedo o un lápiz. Opcional: basta con su nombre escrito.',
    clear: 'Borrar el dibujo',
    sign: 'Firmar el documento',
    decline_legend: 'Rechazar la firma',
    decline_reason: 'Motivo (opcional)',
    decline: 'Rechazar',
    signed: 'Ha firmado este documento. Recibirá una copia por correo electrónico.',
    declined: 'Ha rechazado firmar este documento. Se lo hemos comunicado a {organization}.',
    voided: '{organization} retiró este documento; no hay nada que firmar.',
    expired: 'Este documento ya no se puede firmar: el plazo ha vencido.',
    consent_required: 'Acepte primero firmar electrónicamente.',
    name_required: 'Escriba su nombre completo.',
    sign_later:
      'No se pudo completar su firma en este momento: el servicio de sellado de tiempo del remitente no respondió. No se registró nada; vuelva a firmar en unos minutos.',
  },
  fr: {
    email_subject: '{organization} vous demande de signer : {title}',
    email_body:
      'Bonjour {name},\n\n{organization} vous a envoyé « {title} » à relire et à signer électroniquement. Ouvrez-le ici (le lien fonctionne jusqu’au {expires}) :\n\n{url}\n\nSi vous ne l’attendiez pas, ignorez ce message.',
    signed_subject: 'Signé : {title}',
    signed_body: 'Bonjour {name},\n\nVous avez signé « {title} » pour {organization}. Le document signé et sa piste d’audit sont joints.',
    reminder_subject: 'Rappel : {organization} attend votre signature pour {title}',
    reminder_body:
      'Bonjour {name},\n\n{organization} vous a envoyé « {title} » à signer électroniquement, et le document n’est pas encore signé. Ouvrez-le ici (le lien fonctionne jusqu’au {expires}) :\n\n{url}\n\nSi vous ne souhaitez pas signer, vous pouvez refuser sur la même page.',
    expiry_subject: 'Dernier jour pour signer : {title}',
    expiry_body:
      'Bonjour {name},\n\n« {title} » de {organization} peut être signé jusqu’au {expires} ; ensuite, le lien ne permettra plus de signer. Ouvrez-le ici :\n\n{url}\n\nSi vous ne souhaitez pas signer, vous pouvez refuser sur la même page.',
    title: 'Relire et signer',
    intro: '{organization} vous demande de signer « {title} ». Lisez le document, puis signez ou refusez.',
    download: 'Télécharger le document (PDF)',
    consent:
      'J’accepte de signer ce document électroniquement. Ma signature électronique m’engage comme une signature manuscrite. Je peux demander une copie papier à {organization} et je peux refuser au lieu de signer.',
    signature_legend: 'Votre signature',
    typed: 'Saisissez votre nom complet',
    typed_hint: 'Votre nom saisi est votre signature.',
    drawn: 'Ou dessinez votre signature',
    drawn_hint: 'Dessinez à la souris, au doigt ou au stylet. Facultatif : votre nom saisi suffit.',
    clear: 'Effacer le dessin',
    sign: 'Signer le document',
    decline_legend: 'Refuser de signer',
    decline_reason: 'Motif (facultatif)',
    decline: 'Refuser',
    signed: 'Vous avez signé ce document. Une copie vous est envoyée par e-mail.',
    declined: 'Vous avez refusé de signer ce document. {organization} en a été informé.',
    voided: '{organization} a retiré ce document ; il n’y a rien à signer.',
    expired: 'Ce document ne peut plus être signé : le délai est dépassé.',
    consent_required: 'Acceptez d’abord de signer électroniquement.',
    name_required: 'Saisissez votre nom complet.',
    sign_later:
      'Votre signature n’a pas pu être finalisée pour le moment : le service d’horodatage de l’expéditeur n’a pas répondu. Rien n’a été enregistré ; signez à nouveau dans quelques minutes.',
  },
  de: {
    email_subject: '{organization} bittet Sie um Ihre Unterschrift: {title}',
    email_body:
      'Hallo {name},\n\n{organization} hat Ihnen „{title}“ zum Prüfen und elektronischen Unterschreiben geschickt. Hier öffnen (der Link gilt bis {expires}):\n\n{url}\n\nWenn Sie das nicht erwartet haben, ignorieren Sie diese E-Mail.',
    signed_subject: 'Unterschrieben: {title}',
    signed_body: 'Hallo {name},\n\nSie haben „{title}“ für {organization} unterschrieben. Das unterschriebene Dokument mit Prüfprotokoll ist angehängt.',
    reminder_subject: 'Erinnerung: {organization} wartet auf Ihre Unterschrift: {title}',
    reminder_body:
      'Hallo {name},\n\n{organization} hat Ihnen „{title}“ zum elektronischen Unterschreiben geschickt; es ist noch nicht unterschrieben. Hier öffnen (der Link gilt bis {expires}):\n\n{url}\n\nWenn Sie nicht unterschreiben möchten, können Sie auf derselben Seite ablehnen.',
    expiry_subject: 'Letzter Tag zum Unterschreiben: {title}',
    expiry_body:
      'Hallo {name},\n\n„{title}“ von {organization} kann bis {expires} unterschrieben werden; danach lässt der Link keine Unterschrift mehr zu. Hier öffnen:\n\n{url}\n\nWenn Sie nicht unterschreiben möchten, können Sie auf derselben Seite ablehnen.',
    title: 'Prüfen und unterschreiben',
    intro: '{organization} bittet Sie, „{title}“ zu unterschreiben. Lesen Sie das Dokument, dann unterschreiben oder ablehnen.',
    download: 'Dokument herunterladen (PDF)',
    consent:
      'Ich bin einverstanden, dieses Dokument elektronisch zu unterschreiben. Meine elektronische Unterschrift bindet mich wie eine handschriftliche. Ich kann bei {organization} eine Papierkopie verlangen und statt zu unterschreiben ablehnen.',
    signature_legend: 'Ihre Unterschrift',
    typed: 'Geben Sie Ihren vollständigen Namen ein',
    typed_hint: 'Ihr eingegebener Name ist Ihre Unterschrift.',
    drawn: 'Oder zeichnen Sie Ihre Unterschrift',
    drawn_hint: 'Mit Maus, Finger oder Stift. Freiwillig: Ihr eingegebener Name genügt.',
    clear: 'Zeichnung löschen',
    sign: 'Dokument unterschreiben',
    decline_legend: 'Unterschrift ablehnen',
    decline_reason: 'Grund (freiwillig)',
    decline: 'Ablehnen',
    signed: 'Sie haben dieses Dokument unterschrieben. Eine Kopie kommt per E-Mail.',
    declined: 'Sie haben die Unterschrift abgelehnt. {organization} wurde benachrichtigt.',
    voided: '{organization} hat dieses Dokument zurückgezogen; es gibt nichts zu unterschreiben.',
    expired: 'Dieses Dokument kann nicht mehr unterschrieben werden: die Frist ist abgelaufen.',
    consent_required: 'Bitte stimmen Sie zuerst der elektronischen Unterschrift zu.',
    name_required: 'Bitte geben Sie Ihren vollständigen Namen ein.',
    sign_later:
      'Ihre Unterschrift konnte gerade nicht abgeschlossen werden: Der Zeitstempeldienst des Absenders hat nicht geantwortet. Es wurde nichts gespeichert; bitte unterschreiben Sie in einigen Minuten erneut.',
  },
  pt: {
    email_subject: '{organization} pede a sua assinatura: {title}',
    email_body:
      'Olá {name},\n\n{organization} enviou-lhe "{title}" para rever e assinar eletronicamente. Abra aqui (o link funciona até {expires}):\n\n{url}\n\nSe não esperava esta mensagem, pode ignorá-la.',
    signed_subject: 'Assinado: {title}',
    signed_body: 'Olá {name},\n\nAssinou "{title}" para {organization}. O documento assinado, com a trilha de auditoria, segue em anexo.',
    reminder_subject: 'Lembrete: {organization} aguarda a sua assinatura em {title}',
    reminder_body:
      'Olá {name},\n\n{organization} enviou-lhe "{title}" para assinar eletronicamente e o documento ainda não foi assinado. Abra aqui (o link funciona até {expires}):\n\n{url}\n\nSe não quiser assinar, pode recusar na mesma página.',
    expiry_subject: 'Último dia para assinar: {title}',
    expiry_body:
      'Olá {name},\n\n"{title}", de {organization}, pode ser assinado até {expires}; depois disso, o link deixa de permitir a assinatura. Abra aqui:\n\n{url}\n\nSe não quiser assinar, pode recusar na mesma página.',
    title: 'Rever e assinar',
    intro: '{organization} pede-lhe que assine "{title}". Leia o documento e depois assine ou recuse.',
    download: 'Descarregar o documento (PDF)',
    consent:
      'Aceito assinar este documento eletronicamente. A minha assinatura eletrónica vincula-me como uma manuscrita. Posso pedir uma cópia em papel a {organization} e posso recusar em vez de assinar.',
    signature_legend: 'A sua assinatura',
    typed: 'Escreva o seu nome completo',
    typed_hint: 'O seu nome escrito é a sua assinatura.',
    drawn: 'Ou desenhe a sua assinatura',
    drawn_hint: 'Desenhe com o rato, o dedo ou uma caneta. Opcional: o nome escrito basta.',
    clear: 'Apagar o desenho',
    sign: 'Assinar o documento',
    decline_legend: 'Recusar assinar',
    decline_reason: 'Motivo (opcional)',
    decline: 'Recusar',
    signed: 'Assinou este documento. Vai receber uma cópia por e-mail.',
    declined: 'Recusou assinar este documento. {organization} foi informada.',
    voided: '{organization} retirou este documento; não há nada para assinar.',
    expired: 'Este documento já não pode ser assinado: o prazo terminou.',
    consent_required: 'Aceite primeiro assinar eletronicamente.',
    name_required: 'Escreva o seu nome completo.',
    sign_later:
      'Não foi possível concluir a sua assinatura agora: o serviço de carimbo do tempo do remetente não respondeu. Nada foi registado; assine novamente dentro de alguns minutos.',
  },
  ar: {
    email_subject: 'تطلب منك {organization} التوقيع على: {title}',
    email_body:
      'مرحبًا {name}،\n\nأرسلت إليك {organization} المستند «{title}» لمراجعته وتوقيعه إلكترونيًا. افتحه من هنا (يعمل الرابط حتى {expires}):\n\n{url}\n\nإذا لم تكن تتوقع هذه الرسالة فيمكنك تجاهلها.',
    signed_subject: 'تم التوقيع: {title}',
    signed_body: 'مرحبًا {name}،\n\nلقد وقّعت «{title}» لدى {organization}. المستند الموقّع مع سجل التدقيق مرفق.',
    reminder_subject: 'تذكير: تنتظر {organization} توقيعك على {title}',
    reminder_body:
      'مرحبًا {name}،\n\nأرسلت إليك {organization} المستند «{title}» لتوقيعه إلكترونيًا، ولم يُوقَّع بعد. افتحه من هنا (يعمل الرابط حتى {expires}):\n\n{url}\n\nإذا كنت لا ترغب في التوقيع فيمكنك الرفض من الصفحة نفسها.',
    expiry_subject: 'اليوم الأخير للتوقيع: {title}',
    expiry_body:
      'مرحبًا {name}،\n\nيمكن توقيع «{title}» من {organization} حتى {expires}؛ وبعد ذلك لن يتيح الرابط التوقيع. افتحه من هنا:\n\n{url}\n\nإذا كنت لا ترغب في التوقيع فيمكنك الرفض من الصفحة نفسها.',
    title: 'المراجعة والتوقيع',
    intro: 'تطلب منك {organization} توقيع «{title}». اقرأ المستند ثم وقّعه أو ارفضه.',
    download: 'تنزيل المستند (PDF)',
    consent:
      'أوافق على توقيع هذا المستند إلكترونيًا. توقيعي الإلكتروني ملزم كالتوقيع بخط اليد. يمكنني طلب نسخة ورقية من {organization}، ويمكنني الرفض بدلًا من التوقيع.',
    signature_legend: 'توقيعك',
    typed: 'اكتب اسمك الكامل',
    typed_hint: 'اسمك المكتوب هو توقيعك.',
    drawn: 'أو ارسم توقيعك',
    drawn_hint: 'ارسم بالفأرة أو بإصبعك أو بقلم. اختياري: يكفي اسمك المكتوب.',
    clear: 'مسح الرسم',
    sign: 'توقيع المستند',
    decline_legend: 'رفض التوقيع',
    decline_reason: 'السبب (اختياري)',
    decline: 'رفض',
    signed: 'لقد وقّعت هذا المستند. ستصلك نسخة بالبريد الإلكتروني.',
    declined: 'لقد رفضت توقيع هذا المستند. تم إبلاغ {organization}.',
    voided: 'سحبت {organization} هذا المستند؛ لا يوجد ما يوقَّع.',
    expired: 'لم يعد من الممكن توقيع هذا المستند: انتهت المهلة.',
    consent_required: 'يُرجى الموافقة على التوقيع الإلكتروني أولًا.',
    name_required: 'يُرجى كتابة اسمك الكامل.',
    sign_later: 'تعذّر إكمال توقيعك الآن: لم تستجب خدمة الختم الزمني لدى المرسِل. لم يُسجَّل أي شيء؛ يُرجى التوقيع مرة أخرى بعد بضع دقائق.',
  },
};

export const fill = (text: string, params: Record<string, string>) => text.replace(/\{([a-z_]+)\}/g, (_, key: string) => params[key] ?? '');
