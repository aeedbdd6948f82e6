import Foundation
import PagingDemoCommand

exit(await PagingDemoCommand.main(arguments: CommandLine.arguments.dropFirst()))
