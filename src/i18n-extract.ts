// The entry `ng extract-i18n` reads (angular.json, configuration `extract`): the console and the
// first paint, whose script is built apart (scripts/first-paint.mjs). Never built to ship.
import './main';
import './first-paint/first-paint-text';
