export { setConsoleLogging, setDebugMode } from '../logging'
