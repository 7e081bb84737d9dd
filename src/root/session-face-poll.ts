export { type PollGenericSessionOptions, pollGenericSessionResult } from '../session/face/poll'
