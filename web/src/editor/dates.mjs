// Formats a date the way a date tag's dateFormat will print it (the DateFormat
// enum of handlers/apispec/openapi.yaml), for the properties panel's live preview. Pure; node-tested.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const pad = (n) => String(n).padStart(2, "0");

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st … */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return n + "th";
  return n + ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
}

/** Formats date (a Date, read in local time) in one of the ten formats; "" for an unknown one. */
export function formatDate(date, format) {
  const d = date.getDate();
  const m = date.getMonth();
  const y = date.getFullYear();
  switch (format) {
    case "MM/DD/YYYY":
      return `${pad(m + 1)}/${pad(d)}/${y}`;
    case "DD/MM/YYYY":
      return `${pad(d)}/${pad(m + 1)}/${y}`;
    case "MM/DD/YY":
      return `${pad(m + 1)}/${pad(d)}/${pad(y % 100)}`;
    case "DD/MM/YY":
      return `${pad(d)}/${pad(m + 1)}/${pad(y % 100)}`;
    case "MMMM do, yyyy":
      return `${MONTHS[m]} ${ordinal(d)}, ${y}`;
    case "MMMM do":
      return `${MONTHS[m]} ${ordinal(d)}`;
    case "full":
      return `${DAYS[date.getDay()]}, ${MONTHS[m]} ${d}, ${y}`;
    case "MMMM":
      return MONTHS[m];
    case "do":
      return ordinal(d);
    case "yyyy":
    case "YYYY":
      return String(y);
    default:
      return "";
  }
}
