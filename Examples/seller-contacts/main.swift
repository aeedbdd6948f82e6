import ExampleSupport
import Foundation
import SellerContactsCommand

exit(Console.exitStatus(await SellerContactsCommand.main(arguments: CommandLine.arguments.dropFirst())))
